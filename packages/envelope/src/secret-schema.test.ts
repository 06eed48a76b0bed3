import { parseEnv } from './parse-env';
import { secretSchema } from './secret-schema';

const schema = { type: 'object' as const, properties: { SECRET: secretSchema() } };

describe('secretSchema', () => {
  it.each([
    ['a random hex secret', '3f9c2a7be1d04c5a9e8f7d6c'],
    ['a long passphrase', 'correct horse battery staple'],
  ])('accepts %s', (_name, value) => {
    expect(parseEnv<{ SECRET: string }>(schema, { SECRET: value }).SECRET).toBe(value);
  });

  it.each([
    ['too short', 'short-secret'],
    ['the compose placeholder', 'change-me-admin-token'],
    ['a placeholder in other case', 'please-CHANGE_ME-now-0123'],
    ['one character repeated', 'aaaaaaaaaaaaaaaaaaaa'],
  ])('refuses %s with one line naming the variable', (_name, value) => {
    expect(() => parseEnv(schema, { SECRET: value })).toThrow(
      'SECRET must be a secret of at least 16 characters that is not a placeholder (e.g. the output of openssl rand -hex 24)',
    );
  });
});
