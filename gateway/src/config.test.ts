import path from 'node:path';
import { loadConfig } from './config';
import { BUILT_IN_PLANS } from './domain/plans';

const plansFile = JSON.stringify({ token: { playground_per_day: 0, plans: { only: { monthly_quota: 5, rate_per_second: 1, price: 0, currency: 'EUR' } } } });

describe('loadConfig', () => {
  it('when nothing is set, then the architecture defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      keyHeader: 'x-tollgate-key',
      upstreams: { burger: 'http://127.0.0.1:8081', token: 'http://127.0.0.1:8082', logs: 'http://127.0.0.1:8083' },
      plans: BUILT_IN_PLANS,
      plansSource: 'built-in',
      quotaFailMode: 'closed',
      redisTimeoutMs: 250,
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.adminToken).toBeUndefined();
  });

  it('when GATEWAY_ROLE is unset, then one process does everything; api and worker need a shared store, and a worker streams no usage', () => {
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ GATEWAY_ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379' }).role).toBe('api');
    expect(loadConfig({ GATEWAY_ROLE: 'worker', REDIS_CLUSTER_NODES: '10.0.0.1:7000' }).role).toBe('worker');
    expect(loadConfig({ GATEWAY_ROLE: 'worker', REDIS_URL: 'redis://127.0.0.1:6379', USAGE_EVENTS: 'redis' }).events.usage).toBeUndefined();
    expect(loadConfig({ GATEWAY_ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379', USAGE_EVENTS: 'redis' }).events.usage).toMatchObject({ sink: 'redis' });
    expect(() => loadConfig({ GATEWAY_ROLE: 'worker' })).toThrow(/^GATEWAY_ROLE=worker needs a store the processes share \(REDIS_URL or REDIS_CLUSTER_NODES\)/);
    expect(() => loadConfig({ GATEWAY_ROLE: 'api', STORE_PATH: ':memory:' })).toThrow(/^GATEWAY_ROLE=api needs a store the processes share/);
    expect(() => loadConfig({ GATEWAY_ROLE: 'both' })).toThrow(/^GATEWAY_ROLE must be one of all, api, worker$/);
  });

  it('when the abuse limits are unset, then an account may send 60 test events and redeliveries an hour, hold 1,000 pending deliveries, and create and revoke 100 keys a day; each can be set', () => {
    expect(loadConfig({})).toMatchObject({ keysCreatedPerDay: 100, keysRevokedPerDay: 100, events: { sendsPerHour: 60, pendingPerAccount: 1000 } });
    const set = loadConfig({ KEYS_CREATED_PER_DAY: '5', KEYS_REVOKED_PER_DAY: '6', WEBHOOK_SENDS_PER_HOUR: '7', WEBHOOK_PENDING_PER_ACCOUNT: '80' });
    expect(set).toMatchObject({ keysCreatedPerDay: 5, keysRevokedPerDay: 6, events: { sendsPerHour: 7, pendingPerAccount: 80 } });
    expect(() => loadConfig({ WEBHOOK_PENDING_PER_ACCOUNT: '0' })).toThrow(/^WEBHOOK_PENDING_PER_ACCOUNT must be an integer from 10 to 1000000$/);
  });

  it('when STORE_PATH is unset, then the embedded store is data/tollgate.db under the working directory; when set, that file (resolved once), or :memory:', () => {
    expect(loadConfig({}).storePath).toBe(path.join(process.cwd(), 'data', 'tollgate.db'));
    expect(loadConfig({ STORE_PATH: 'var/gw.db' }).storePath).toBe(path.join(process.cwd(), 'var', 'gw.db'));
    expect(loadConfig({ STORE_PATH: '/srv/tollgate/store.db' }).storePath).toBe('/srv/tollgate/store.db');
    expect(loadConfig({ STORE_PATH: ':memory:' }).storePath).toBe(':memory:');
    expect(loadConfig({ STORE_PATH: '' }).storePath).toBe(path.join(process.cwd(), 'data', 'tollgate.db'));
  });

  it('when REDIS_CLUSTER_NODES is set, then its seed nodes are read; with REDIS_URL too, or malformed, one line refuses it', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b.internal:7001,[::1]:7002' }).redisClusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b.internal', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'localhost:7000' }).redisUrl).toBeUndefined();
    expect(loadConfig({}).redisClusterNodes).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' })).toThrow(/^REDIS_URL and REDIS_CLUSTER_NODES are both set; set REDIS_URL for one Redis or REDIS_CLUSTER_NODES for a Redis Cluster, not both$/);
    for (const bad of ['localhost', 'redis://a:7000', 'a:7000;b:7001', 'a:70000', 'a:0', ':7000', ',', '[:]:7000', '[1.2.3.4]:7000', '[::1', '::1:7000']) {
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: bad })).toThrow(/^REDIS_CLUSTER_NODES (must be host:port pairs|names)/);
    }
    // A node named twice is one seed node.
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.1:7000,[::1]:7000,[::1]:7000' }).redisClusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: '::1', port: 7000 },
    ]);
  });

  it('when FORWARD_AUTHORIZATION or FORWARD_SET_COOKIE name APIs, then those are read; none by default; an API the gateway does not route is refused', () => {
    expect(loadConfig({})).toMatchObject({ forwardAuthorization: [], forwardSetCookie: [] });
    expect(loadConfig({ FORWARD_AUTHORIZATION: ' token, logs,token ', FORWARD_SET_COOKIE: 'burger' })).toMatchObject({ forwardAuthorization: ['token', 'logs'], forwardSetCookie: ['burger'] });
    expect(() => loadConfig({ FORWARD_AUTHORIZATION: 'token,weather' })).toThrow(/^FORWARD_AUTHORIZATION names weather, which the gateway does not route; APIs are burger, token, logs$/);
    expect(() => loadConfig({ FORWARD_SET_COOKIE: 'burger', PLANS_FILE: '/etc/plans.json' }, () => plansFile)).toThrow(/^FORWARD_SET_COOKIE names burger, which the gateway does not route; APIs are token$/);
    expect(() => loadConfig({ FORWARD_SET_COOKIE: 'Token;logs' })).toThrow(/^FORWARD_SET_COOKIE must be API names, comma-separated/);
  });

  it('when PLANS_FILE is valid, then it replaces the table and only its APIs are routed', () => {
    const config = loadConfig({ PLANS_FILE: '/etc/plans.json', KEY_HEADER: 'X-Api-Key' }, () => plansFile);
    expect(Object.keys(config.plans)).toEqual(['token']);
    expect(config.upstreams).toEqual({ token: 'http://127.0.0.1:8082' });
    expect(config.keyHeader).toBe('x-api-key');
  });

  it.each<[Record<string, string>, RegExp]>([
    [{ PORT: 'eighty' }, /^PORT must be an integer from 0 to 65535$/],
    [{ QUOTA_FAIL_MODE: 'maybe' }, /^QUOTA_FAIL_MODE must be one of closed, open$/],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$/],
    [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN must be a secret of at least 16 characters that is not a placeholder/],
    [{ ADMIN_TOKEN: 'change-me-admin-token' }, /^ADMIN_TOKEN must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'change-me-proxy-secret' }, /^PROXY_SECRET must be a secret of at least 16 characters/],
    [{ PROXY_SECRET: 's' }, /^PROXY_SECRET must be a secret of at least 16 characters/],
    [{ CORS_ORIGINS: 'example.com' }, /^CORS_ORIGINS must be \* or a comma-separated list of origins/],
    [{ METRICS_PORT: '99999' }, /^METRICS_PORT must be an integer from 0 to 65535$/],
    [{ TRUSTED_PROXIES: '10.0.0.0/99' }, /^TRUSTED_PROXIES must be addresses or CIDR ranges/],
    [{ TOKEN_URL: 'ftp://x' }, /^TOKEN_URL must be an http\(s\) URL$/],
    [{ KEY_HEADER: 'x-tollgate-user' }, /^KEY_HEADER must not be another x-tollgate-\* header/],
  ])('when the environment is %j, then one line names the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each<[string, RegExp]>([
    ['{"token": {"playground_per_day": -1, "plans": {}}}', /^PLANS_FILE \/p\.json: token\.playground_per_day must be >= 0$/],
    ['{"weather": {"playground_per_day": 0, "plans": {"free": {"monthly_quota": 1, "rate_per_second": 1, "price": 0, "currency": "EUR"}}}}', /^PLANS_FILE \/p\.json names weather, which has no service/],
  ])('when PLANS_FILE holds %s, then one line says what is wrong', (text, message) => {
    expect(() => loadConfig({ PLANS_FILE: '/p.json' }, () => text)).toThrow(message);
  });

  it('when PUBLIC_URL is https with no TRUSTED_PROXIES, or http on a public name, then a start-up warning says what the session cookie and the limits will do', () => {
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com' }).warnings).toEqual([expect.stringMatching(/^PUBLIC_URL is https but TRUSTED_PROXIES is not set: .*Secure because of PUBLIC_URL/)]);
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com', TRUSTED_PROXIES: '10.0.0.0/8' }).warnings).toEqual([]);
    expect(loadConfig({ PUBLIC_URL: 'http://api.example.com', TRUSTED_PROXIES: '10.0.0.0/8' }).warnings).toEqual([expect.stringMatching(/^PUBLIC_URL is http on a public name: the session cookie goes out without Secure/)]);
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) expect(loadConfig({ PUBLIC_URL: local }).warnings).toEqual([]);
  });

  it('when PLANS_FILE cannot be read, then the error names the file', () => {
    expect(() => loadConfig({ PLANS_FILE: '/missing.json' })).toThrow(/^PLANS_FILE \/missing\.json cannot be read: ENOENT/);
  });

  describe('card payments', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_51Abcdefgh', PUBLIC_URL: 'https://api.example.com' };

    it('when no key is set, then billing is off; SUPPORT_EMAIL is kept for what paid plans say', () => {
      const config = loadConfig({ SUPPORT_EMAIL: 'sales@example.com' });
      expect(config.billing).toBeUndefined();
      expect(config.supportEmail).toBe('sales@example.com');
    });

    it('when a key and PUBLIC_URL are set, then billing has the defaults: 7 grace days, reconciliation every 15 minutes, no test clocks, the real API', () => {
      expect(loadConfig(stripe).billing).toEqual({ secretKey: 'sk_test_51Abcdefgh', publicUrl: 'https://api.example.com', graceDays: 7, reconcileSeconds: 900, testClocks: false, automaticTax: false });
    });

    it('when STRIPE_API_BASE and the rest are set, then the SDK gets host, port and protocol', () => {
      const config = loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh123', STRIPE_API_BASE: 'http://127.0.0.1:12111', STRIPE_TEST_CLOCKS: 'true', BILLING_GRACE_DAYS: '3', BILLING_RECONCILE_SECONDS: '60' });
      expect(config.billing).toMatchObject({ webhookSecret: 'whsec_abcdefgh123', apiBase: { host: '127.0.0.1', port: 12111, protocol: 'http' }, testClocks: true, graceDays: 3, reconcileSeconds: 60 });
      expect(loadConfig({ ...stripe, STRIPE_API_BASE: 'https://stripe.internal' }).billing?.apiBase).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    });

    it.each<[Record<string, string>, RegExp]>([
      [{ STRIPE_SECRET_KEY: 'sk_test_51Abcdefgh' }, /^STRIPE_SECRET_KEY needs PUBLIC_URL/],
      [{ STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh123' }, /^STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not/],
      [{ STRIPE_API_BASE: 'http://127.0.0.1:12111' }, /^STRIPE_API_BASE is set but STRIPE_SECRET_KEY is not/],
      [{ STRIPE_TEST_CLOCKS: 'true' }, /^STRIPE_TEST_CLOCKS is set but STRIPE_SECRET_KEY is not/],
      [{ ...stripe, STRIPE_SECRET_KEY: 'sk_live_51Abcdefgh', STRIPE_TEST_CLOCKS: 'true' }, /^STRIPE_TEST_CLOCKS works with a test-mode key/],
      [{ ...stripe, STRIPE_SECRET_KEY: 'pk_test_51Abcdefgh' }, /^STRIPE_SECRET_KEY must be a Stripe secret or restricted key/],
      [{ ...stripe, STRIPE_WEBHOOK_SECRET: 'secret' }, /^STRIPE_WEBHOOK_SECRET must be a webhook signing secret/],
      [{ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' }, /^STRIPE_API_BASE must be the base URL of a Stripe-compatible API/],
      [{ ...stripe, BILLING_GRACE_DAYS: '-1' }, /^BILLING_GRACE_DAYS must be an integer from 0 to 60$/],
      [{ ...stripe, BILLING_RECONCILE_SECONDS: '1' }, /^BILLING_RECONCILE_SECONDS must be an integer from 5 to 86400$/],
      [{ SUPPORT_EMAIL: 'nobody' }, /^SUPPORT_EMAIL must be an email address$/],
    ])('when the environment is %j, then one line names the variable', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });
  });

  describe('SECRETS_KEY', () => {
    const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 3 + 1));
    it('when the key is given as hex, base64 or base64url, then it is those 32 bytes; the previous keys are kept, the current one among them dropped', () => {
      for (const written of [KEY.toString('hex'), KEY.toString('base64'), KEY.toString('base64url'), ` ${KEY.toString('hex').toUpperCase()} `]) expect(loadConfig({ SECRETS_KEY: written }).secretsKeys.current).toEqual(KEY);
      const other = Buffer.from(KEY).reverse();
      expect(loadConfig({ SECRETS_KEY: KEY.toString('base64'), SECRETS_KEY_PREVIOUS: `${other.toString('hex')}, ${KEY.toString('hex')}` }).secretsKeys).toEqual({ current: KEY, previous: [other] });
      expect(loadConfig({}).secretsKeys).toEqual({ previous: [] });
    });

    it.each([
      ['SECRETS_KEY', 'short', /^SECRETS_KEY must be 32 random bytes written as 64 hex digits or in base64/],
      ['SECRETS_KEY', 'a'.repeat(63), /^SECRETS_KEY must be 32 random bytes/],
      ['SECRETS_KEY', Buffer.alloc(31, 7).toString('base64'), /^SECRETS_KEY must be 32 random bytes/],
      ['SECRETS_KEY', '0'.repeat(64), /^SECRETS_KEY is one byte repeated, a placeholder/],
      ['SECRETS_KEY_PREVIOUS', 'not-a-key', /^SECRETS_KEY_PREVIOUS must be 32 random bytes/],
    ])('when %s is %j, then one line says what a key is, without echoing it', (variable, value, message) => {
      expect(() => loadConfig({ [variable]: value })).toThrow(message);
      try {
        loadConfig({ [variable]: value });
      } catch (err) {
        expect((err as Error).message).not.toContain(value);
      }
    });
  });
});
