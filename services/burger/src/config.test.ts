import { DEFAULT_DATA_URL, loadConfig } from './config';

describe('loadConfig', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    expect(loadConfig({})).toEqual({
      port: 8081,
      proxySecret: undefined,
      dataUrl: DEFAULT_DATA_URL,
      refreshMs: 600_000,
      retryMs: 30_000,
      upstreamTimeoutMs: 10_000,
      logLevel: 'info',
    });
  });

  it('when every variable is set, then each is read and seconds become milliseconds', () => {
    const config = loadConfig({
      PORT: '9000',
      PROXY_SECRET: 'proxy-secret-0123456789abcdef',
      BURGER_DATA_URL: '/data/big-mac.csv',
      BURGER_SOURCE_LABEL: 'snapshot of 2026-01-01, not the live file',
      BURGER_REFRESH_SECONDS: '60',
      BURGER_RETRY_SECONDS: '5',
      BURGER_UPSTREAM_TIMEOUT_MS: '2500',
      LOG_LEVEL: 'warn',
    });
    expect(config).toEqual({
      port: 9000,
      proxySecret: 'proxy-secret-0123456789abcdef',
      dataUrl: '/data/big-mac.csv',
      sourceLabel: 'snapshot of 2026-01-01, not the live file',
      refreshMs: 60_000,
      retryMs: 5_000,
      upstreamTimeoutMs: 2500,
      logLevel: 'warn',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535'],
    [{ PROXY_SECRET: 'shh' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'change-me-proxy-secret' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'aaaaaaaaaaaaaaaaaaaa' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ BURGER_REFRESH_SECONDS: '0' }, 'BURGER_REFRESH_SECONDS must be an integer from 1 to 604800'],
    [{ BURGER_RETRY_SECONDS: 'often' }, 'BURGER_RETRY_SECONDS must be an integer from 1 to 86400'],
    [{ BURGER_UPSTREAM_TIMEOUT_MS: '1.5' }, 'BURGER_UPSTREAM_TIMEOUT_MS must be an integer from 100 to 300000'],
    [{ BURGER_SOURCE_LABEL: 'two\nlines' }, 'BURGER_SOURCE_LABEL must be one line saying what the copy at BURGER_DATA_URL is'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
  ])('when the environment is %j, then loading fails with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
