import { loadConfig } from './config';

describe('loadConfig', () => {
  it('when nothing is set, then the defaults apply', () => {
    expect(loadConfig({})).toEqual({ PORT: 8082, TOKEN_UPSTREAM_URL: 'https://coins.llama.fi', TOKEN_UPSTREAM_TIMEOUT_MS: 10_000, LOG_LEVEL: 'info' });
  });

  it('when values are set, then they are coerced', () => {
    expect(loadConfig({ PORT: '0', PROXY_SECRET: 'proxy-secret-0123456789abcdef', TOKEN_UPSTREAM_URL: 'http://127.0.0.1:9', TOKEN_UPSTREAM_TIMEOUT_MS: '500' })).toMatchObject({
      PORT: 0, PROXY_SECRET: 'proxy-secret-0123456789abcdef', TOKEN_UPSTREAM_URL: 'http://127.0.0.1:9', TOKEN_UPSTREAM_TIMEOUT_MS: 500,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535'],
    [{ PROXY_SECRET: 'shh' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'change-me-proxy-secret' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'aaaaaaaaaaaaaaaaaaaa' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ TOKEN_UPSTREAM_URL: 'coins.llama.fi' }, 'TOKEN_UPSTREAM_URL must be an http(s) URL'],
    [{ TOKEN_UPSTREAM_TIMEOUT_MS: '10' }, 'TOKEN_UPSTREAM_TIMEOUT_MS must be an integer from 100 to 120000'],
  ])('when %p is set, then the error names the variable: %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
