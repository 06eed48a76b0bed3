import { ConfigError, parseEnv } from './parse-env';

interface Env {
  PORT: number;
  REDIS_URL?: string;
  QUOTA_FAIL_MODE: 'open' | 'closed';
}

const schema = {
  type: 'object' as const,
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    REDIS_URL: { type: 'string', pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' },
    QUOTA_FAIL_MODE: { type: 'string', enum: ['open', 'closed'], default: 'closed' },
  },
};

describe('parseEnv', () => {
  it('when nothing is set, then defaults apply and unset optionals stay absent', () => {
    expect(parseEnv<Env>(schema, {})).toEqual({ PORT: 8080, QUOTA_FAIL_MODE: 'closed' });
  });

  it('when values are set, then they are coerced; empty strings count as unset; other variables are ignored', () => {
    expect(parseEnv<Env>(schema, { PORT: '0', REDIS_URL: '', HOME: '/root', QUOTA_FAIL_MODE: 'open' })).toEqual({
      PORT: 0,
      QUOTA_FAIL_MODE: 'open',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535'],
    [{ QUOTA_FAIL_MODE: 'maybe' }, 'QUOTA_FAIL_MODE must be one of open, closed'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
  ])('when the environment is %j, then a ConfigError names the variable', (env, message) => {
    expect(() => parseEnv<Env>(schema, env)).toThrow(new ConfigError(message));
  });
});
