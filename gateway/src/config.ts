import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isIPv6 } from 'node:net';
import proxyAddr from 'proxy-addr';
import { parseEnv, secretSchema } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import { plainPlanTable } from './domain/catalogue';
import type { Catalogue, CatalogueApi } from './domain/catalogue';
import type { PlanTable } from './domain/plans';
import { formatOf, parseCatalogue } from './domain/catalogue-file';
import type { CatalogueDefaults } from './domain/catalogue-file';
import { parsePlanTable } from './domain/plans-file';
import { parseCorsOrigins } from './domain/cors-origins';
import { normaliseEmail } from './domain/email';

// Nothing trusted: the socket's own address is the client's.
const TRUST_NONE = (): boolean => false;

function compileTrust(value: string | undefined): (address: string, hop: number) => boolean {
  if (!value) return TRUST_NONE;
  try {
    return proxyAddr.compile(value.split(',').map((v) => v.trim()).filter(Boolean));
  } catch (err) {
    throw new Error(`TRUSTED_PROXIES must be addresses or CIDR ranges, comma-separated (or loopback, linklocal, uniquelocal): ${(err as Error).message}`);
  }
}

/**
 * What a gateway process runs (`GATEWAY_ROLE`): `all` (the default) serves calls and runs every
 * background loop; on a shared store, `api` serves calls and runs only the loops the API path
 * feeds, and `worker` serves no calls and runs the fleet's loops (webhook deliveries, hourly
 * notices, billing's reconciliation and grace sweep).
 */
export type GatewayRole = 'all' | 'api' | 'worker';

/** The gateway's configuration, parsed once at start. */
export interface GatewayConfig {
  port: number;
  role: GatewayRole;
  /** Unset: the embedded SQLite store at {@link storePath} (one process only). */
  redisUrl?: string;
  /** A Redis Cluster's seed nodes (`REDIS_CLUSTER_NODES`); never set together with {@link redisUrl}. */
  redisClusterNodes?: ClusterNode[];
  /**
   * The embedded store's file, absolute (`STORE_PATH`, default `data/tollgate.db` under the working
   * directory); `:memory:` for the plain in-memory store, which keeps nothing (tests and benches).
   */
  storePath: string;
  /** `ADMIN_TOKEN`; unset: the token kept in {@link adminTokenFile}. */
  adminToken?: string;
  /**
   * Where the admin token is kept when `ADMIN_TOKEN` is unset (`ADMIN_TOKEN_FILE`, default
   * `admin-token` beside the store file), absolute; unset with `STORE_PATH=:memory:` and no
   * `ADMIN_TOKEN_FILE`: then there is no admin API.
   */
  adminTokenFile?: string;
  /** Addresses that may sign in to the operators' console with a mailed code (`OPERATOR_EMAILS`), normalised. */
  operatorEmails: string[];
  /** Lower-case name of the header carrying the API key. */
  keyHeader: string;
  proxySecret?: string;
  /** The catalogue as read at start (a reload reads {@link catalogueSource} again: data/live-catalogue.ts). */
  catalogue: Catalogue;
  /** Where the catalogue is read from, for a reload. */
  catalogueSource: CatalogueSource;
  quotaFailMode: 'closed' | 'open';
  logLevel: string;
  redisTimeoutMs: number;
  signupsPerHour: number;
  /** Keys an account may create (`KEYS_CREATED_PER_DAY`) and revoke (`KEYS_REVOKED_PER_DAY`) itself in one UTC day. */
  keysCreatedPerDay: number;
  /** Members a team may hold (`TEAM_MAX_MEMBERS`) and pending invitations (`TEAM_MAX_PENDING_INVITES`); docs/teams.md. */
  teamMaxMembers: number;
  teamMaxPendingInvites: number;
  keysRevokedPerDay: number;
  /** Browser origins allowed to call the data APIs (`*` for any); empty for none. */
  corsOrigins: string[];
  /** Serve `/metrics` on this port only; unset: on the main port behind the admin token. */
  metricsPort?: number;
  /** The trusted-hop test compiled from `TRUSTED_PROXIES` (proxy-addr syntax); unset: no hop is trusted. */
  trust: (address: string, hop: number) => boolean;
  /** Portal mail over SMTP (`smtp://` or `smtps://`); unset: each mail is written to the log. */
  smtpUrl?: string;
  mailFrom: string;
  /** Sign-in codes asked for per email address, and per client address, in one UTC hour. */
  signInsPerHour: number;
  sessionTtlHours: number;
  /** The portal's origin for links in mail (e.g. `https://api.example.com`); unset: the request's own. */
  publicUrl?: string;
  /** One line each about settings that work together badly, logged as warnings at start. */
  warnings: string[];
  /** Card payments through Stripe; unset (no `STRIPE_SECRET_KEY`): paid plans show their prices and say whom to ask. */
  billing?: BillingConfig;
  /** Whom people are told to ask (about paid plans while billing is off); `SUPPORT_EMAIL`. */
  supportEmail?: string;
  /** Alerts, webhooks out and the usage stream (the events room). */
  events: EventsConfig;
  /** The keys that seal webhook signing secrets in the store (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`). */
  secretsKeys: SecretsKeys;
}

/**
 * AES-256 keys for the secrets kept in the store: `current` seals (none: they are kept plain), and
 * any of `current` and `previous` opens, so a key can be rotated without a moment when stored
 * secrets cannot be read.
 */
export interface SecretsKeys {
  current?: Buffer;
  previous: readonly Buffer[];
}

/** The events room's settings. */
export interface EventsConfig {
  /** Webhooks may reach loopback and private addresses, and plain http to loopback (`WEBHOOKS_ALLOW_PRIVATE`): tests and local use. */
  allowPrivate: boolean;
  /** One webhook attempt's limit (ms), connecting included. */
  webhookTimeoutMs: number;
  /** `quota.threshold_reached` from admission's counts (`QUOTA_ALERTS`). */
  quotaAlerts: boolean;
  /** Test events and redeliveries an account may ask for in one UTC hour (`WEBHOOK_SENDS_PER_HOUR`). */
  sendsPerHour: number;
  /** Deliveries an account may have waiting at once (`WEBHOOK_PENDING_PER_ACCOUNT`); past it new ones are refused. */
  pendingPerAccount: number;
  /** The usage stream; unset (`USAGE_EVENTS=off`): none. */
  usage?: UsageStreamConfig;
}

/** Where usage events go, and how many are held while the sink is slow. */
export type UsageStreamConfig = { capacity: number; source?: string } & (
  | { sink: 'redis'; redisUrl?: string; clusterNodes?: ClusterNode[]; shards: number; maxLen: number }
  | { sink: 'http'; url: string }
);

/** Stripe billing, set by `STRIPE_SECRET_KEY` (which needs `PUBLIC_URL`). */
export interface BillingConfig {
  secretKey: string;
  /** Unset: `POST /billing/webhook` refuses every event, and only reconciliation brings state in. */
  webhookSecret?: string;
  /** A Stripe-compatible API (stripe-local in tests and the demo), as the SDK's host, port and protocol. */
  apiBase?: { host: string; port: number; protocol: 'http' | 'https' };
  /** The origin Checkout and the billing portal return to: `PUBLIC_URL`. */
  publicUrl: string;
  /** Days a past-due subscription keeps being served after the unpaid invoice's date. */
  graceDays: number;
  /** How often reconciliation compares Stripe's subscriptions with the store (s). */
  reconcileSeconds: number;
  /** Test mode only: each new customer lives on a test clock of its own, so renewals can be rehearsed. */
  testClocks: boolean;
  /** Stripe Tax (`STRIPE_AUTOMATIC_TAX`): Checkout collects the billing address and a business's VAT number, and invoices carry the tax. */
  automaticTax: boolean;
}

/**
 * What `PUBLIC_URL` and `TRUSTED_PROXIES` say together: an https public origin with no trusted
 * proxy is a TLS-terminating proxy the gateway cannot see through (the session cookie is still
 * Secure, from PUBLIC_URL; client addresses are the proxy's); an http one on a public name sends
 * the cookie without Secure.
 */
function publicUrlWarnings(publicUrl: string | undefined, trustedProxies: string | undefined): string[] {
  if (!publicUrl) return [];
  const { protocol, hostname } = new URL(publicUrl);
  if (protocol === 'https:' && !trustedProxies) {
    return [
      'PUBLIC_URL is https but TRUSTED_PROXIES is not set: requests reach the gateway as plain HTTP from its proxy, so the session cookie is marked Secure because of PUBLIC_URL, and every client counts as the proxy’s address in the sign-in and sign-up limits; set TRUSTED_PROXIES to the proxy’s address',
    ];
  }
  if (protocol === 'http:' && !/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(hostname)) {
    return ['PUBLIC_URL is http on a public name: the session cookie goes out without Secure unless a request arrives over TLS; set an https PUBLIC_URL'];
  }
  return [];
}

interface Env {
  PORT: number;
  GATEWAY_ROLE: GatewayRole;
  REDIS_URL?: string;
  REDIS_CLUSTER_NODES?: string;
  STORE_PATH: string;
  ADMIN_TOKEN?: string;
  ADMIN_TOKEN_FILE?: string;
  OPERATOR_EMAILS?: string;
  KEY_HEADER: string;
  CATALOGUE_FILE?: string;
  BURGER_URL?: string;
  TOKEN_URL?: string;
  LOGS_URL?: string;
  PROXY_SECRET?: string;
  PLANS_FILE?: string;
  QUOTA_FAIL_MODE: 'closed' | 'open';
  LOG_LEVEL: string;
  REDIS_TIMEOUT_MS: number;
  UPSTREAM_TIMEOUT_MS: number;
  UPSTREAM_MAX_SOCKETS: number;
  SIGNUPS_PER_HOUR: number;
  KEYS_CREATED_PER_DAY: number;
  TEAM_MAX_MEMBERS: number;
  TEAM_MAX_PENDING_INVITES: number;
  KEYS_REVOKED_PER_DAY: number;
  CORS_ORIGINS?: string;
  METRICS_PORT?: number;
  TRUSTED_PROXIES?: string;
  SMTP_URL?: string;
  MAIL_FROM: string;
  SIGNINS_PER_HOUR: number;
  SESSION_TTL_HOURS: number;
  PUBLIC_URL?: string;
  FORWARD_AUTHORIZATION?: string;
  FORWARD_SET_COOKIE?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  STRIPE_TEST_CLOCKS: boolean;
  STRIPE_AUTOMATIC_TAX: boolean;
  SUPPORT_EMAIL?: string;
  BILLING_GRACE_DAYS: number;
  BILLING_RECONCILE_SECONDS: number;
  WEBHOOKS_ALLOW_PRIVATE: boolean;
  WEBHOOK_TIMEOUT_MS: number;
  QUOTA_ALERTS: boolean;
  WEBHOOK_SENDS_PER_HOUR: number;
  WEBHOOK_PENDING_PER_ACCOUNT: number;
  USAGE_EVENTS: 'off' | 'redis' | 'http';
  USAGE_EVENTS_URL?: string;
  USAGE_EVENTS_REDIS_URL?: string;
  USAGE_EVENTS_BUFFER: number;
  USAGE_EVENTS_SOURCE?: string;
  USAGE_STREAM_SHARDS?: number;
  USAGE_STREAM_MAXLEN: number;
  SECRETS_KEY?: string;
  SECRETS_KEY_PREVIOUS?: string;
}

/** Where the embedded store lives when `STORE_PATH` is unset, relative to the working directory. */
export const DEFAULT_STORE_PATH = 'data/tollgate.db';
/** The admin token's file beside the store file, when `ADMIN_TOKEN_FILE` does not say. */
export const DEFAULT_ADMIN_TOKEN_FILE = 'admin-token';
/** `STORE_PATH` value for the plain in-memory store. */
export const MEMORY_STORE_PATH = ':memory:';

/** A seed node of a Redis Cluster. */
export interface ClusterNode {
  host: string;
  port: number;
}

// host:port, the host a name, an IPv4 address or an IPv6 address in brackets.
const CLUSTER_NODE = '(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):[0-9]{1,5}';

/** `REDIS_CLUSTER_NODES` (already matched by the schema) as nodes; a port out of range is refused. */
function parseClusterNodes(value: string): ClusterNode[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.lastIndexOf(':');
      const port = Number(part.slice(colon + 1));
      if (port < 1 || port > 65535) throw new Error(`REDIS_CLUSTER_NODES names port ${part.slice(colon + 1)} in '${part}'; a port is 1 to 65535`);
      const bracketed = part.startsWith('[');
      const host = part.slice(0, colon).replace(/^\[|\]$/g, '');
      // Brackets hold an IPv6 address and nothing else (`[::1]:7000`); `[:]` or `[1.2.3.4]` would only fail later, at connection.
      if (bracketed && !isIPv6(host)) throw new Error(`REDIS_CLUSTER_NODES names '${part}'; brackets hold an IPv6 address, such as [::1]:7000`);
      return { host, port };
    })
    // A node named twice is one seed node.
    .filter((node, i, all) => all.findIndex((n) => n.host === node.host && n.port === node.port) === i);
}

const apiList = { type: 'string', pattern: '^\\s*([a-z][a-z0-9_-]*(\\s*,\\s*[a-z][a-z0-9_-]*)*)?\\s*$', description: 'API names, comma-separated (such as token,logs)' };

/** The APIs a comma-separated list names; each must be one the catalogue has. */
function parseApiList(variable: string, value: string | undefined, routed: readonly string[]): string[] {
  const names = [...new Set((value ?? '').split(',').map((name) => name.trim()).filter(Boolean))];
  const unknown = names.filter((name) => !routed.includes(name));
  if (unknown.length) throw new Error(`${variable} names ${unknown.join(', ')}, which the gateway does not route; APIs are ${routed.join(', ')}`);
  return names;
}

/** The built-in catalogue (gateway/catalogue/built-in.yaml): two levels up from both src/ and dist/. */
export const BUILT_IN_CATALOGUE = path.resolve(__dirname, '../catalogue/built-in.yaml');

/**
 * The variables that set an API of the built-in catalogue's upstream: shorthands from before the
 * catalogue, used only without CATALOGUE_FILE.
 */
const UPSTREAM_SHORTHANDS = { BURGER_URL: 'burger', TOKEN_URL: 'token', LOGS_URL: 'logs' } as const;
type Shorthand = keyof typeof UPSTREAM_SHORTHANDS | 'PLANS_FILE' | 'FORWARD_AUTHORIZATION' | 'FORWARD_SET_COOKIE';

/** Where the catalogue comes from: read at start, and again by each reload. */
export interface CatalogueSource {
  /** `CATALOGUE_FILE`, absolute; unset: the built-in catalogue with the shorthands below. */
  file?: string;
  /** `PLANS_FILE`: replaces the built-in catalogue's plans, and serves only the APIs it names. */
  plansFile?: string;
  /** `BURGER_URL`, `TOKEN_URL`, `LOGS_URL`: upstreams of the built-in APIs, by API. */
  upstreams: Record<string, string>;
  /** `FORWARD_AUTHORIZATION` and `FORWARD_SET_COOKIE` as they were set (checked against the catalogue's APIs). */
  forwardAuthorization?: string;
  forwardSetCookie?: string;
  /** `UPSTREAM_TIMEOUT_MS`, `UPSTREAM_MAX_SOCKETS`: each API's proxy settings unless it says. */
  defaults: CatalogueDefaults;
}

function catalogueSourceOf(e: Env): CatalogueSource {
  const upstreams: Record<string, string> = {};
  for (const [variable, api] of Object.entries(UPSTREAM_SHORTHANDS)) {
    const value = e[variable as keyof typeof UPSTREAM_SHORTHANDS];
    if (value) upstreams[api] = value;
  }
  const source: CatalogueSource = { upstreams, defaults: { timeoutMs: e.UPSTREAM_TIMEOUT_MS, maxConnections: e.UPSTREAM_MAX_SOCKETS } };
  if (e.CATALOGUE_FILE) source.file = path.resolve(e.CATALOGUE_FILE);
  if (e.PLANS_FILE) source.plansFile = e.PLANS_FILE;
  if (e.FORWARD_AUTHORIZATION) source.forwardAuthorization = e.FORWARD_AUTHORIZATION;
  if (e.FORWARD_SET_COOKIE) source.forwardSetCookie = e.FORWARD_SET_COOKIE;
  return source;
}

/** One line for each shorthand set beside CATALOGUE_FILE, which the catalogue file supersedes. */
function supersededShorthands(e: Env): string[] {
  if (!e.CATALOGUE_FILE) return [];
  const set = ([...Object.keys(UPSTREAM_SHORTHANDS), 'PLANS_FILE', 'FORWARD_AUTHORIZATION', 'FORWARD_SET_COOKIE'] as Shorthand[]).filter((name) => e[name] !== undefined);
  return set.map((name) => `${name} is set, but CATALOGUE_FILE names the catalogue, which says each API's upstream, plans and proxy settings: ${name} is not used; unset it`);
}

let builtInText: string | undefined;

/** Reads the built-in catalogue's file once: it is part of the gateway, not the operator's. */
function builtInCatalogueText(): string {
  builtInText ??= readFileSync(BUILT_IN_CATALOGUE, 'utf8');
  return builtInText;
}

const read = (variable: string, file: string, readFile: (path: string) => string): string => {
  try {
    return readFile(file);
  } catch (err) {
    throw new Error(`${variable} ${file} cannot be read: ${(err as Error).message}`);
  }
};

/**
 * Reads and validates the catalogue the source names: CATALOGUE_FILE, or the built-in one with the
 * shorthands applied (PLANS_FILE's plans, in its order; BURGER_URL…; FORWARD_*). Throws an Error
 * whose message is one line naming the file, the line and the place. A reload calls it again.
 */
export function readCatalogue(source: CatalogueSource, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): Catalogue {
  if (source.file) {
    const label = `CATALOGUE_FILE ${source.file}`;
    return parseCatalogue(read('CATALOGUE_FILE', source.file, readFile), { source: label, format: formatOf(source.file), defaults: source.defaults });
  }
  const text = builtInCatalogueText();
  const builtIn = parseCatalogue(text, { source: 'the built-in catalogue', format: 'yaml', defaults: source.defaults });
  let apis: Record<string, CatalogueApi> = {};
  for (const [name, api] of Object.entries(builtIn.apis)) apis[name] = { ...api, ...(source.upstreams[name] ? upstreamOf(api, source.upstreams[name]) : {}) };
  let digested = text;
  if (source.plansFile) {
    const plansText = read('PLANS_FILE', source.plansFile, readFile);
    const plans = parsePlanTable(plansText, `PLANS_FILE ${source.plansFile}`);
    const unrouted = Object.keys(plans).filter((api) => !Object.hasOwn(apis, api));
    if (unrouted.length) throw new Error(`PLANS_FILE ${source.plansFile} names ${unrouted.join(', ')}, which has no service; APIs must be among ${Object.keys(apis).join(', ')}`);
    apis = Object.fromEntries(
      Object.entries(plans).map(([name, table]) => [
        name,
        { ...(apis[name] as CatalogueApi), playground_per_day: table.playground_per_day, plans: Object.fromEntries(Object.entries(table.plans).map(([plan, p]) => [plan, { ...p, features: [], offered: true }])) },
      ]),
    );
    digested += plansText;
  }
  const names = Object.keys(apis);
  for (const name of parseApiList('FORWARD_AUTHORIZATION', source.forwardAuthorization, names)) (apis[name] as CatalogueApi).proxy = { ...(apis[name] as CatalogueApi).proxy, forward_headers: ['authorization'] };
  for (const name of parseApiList('FORWARD_SET_COOKIE', source.forwardSetCookie, names)) (apis[name] as CatalogueApi).proxy = { ...(apis[name] as CatalogueApi).proxy, forward_set_cookie: true };
  digested += JSON.stringify(source.upstreams);
  return { apis, source: source.plansFile ? `built-in, plans from PLANS_FILE ${source.plansFile}` : 'built-in', digest: createHash('sha256').update(digested).digest('hex').slice(0, 16) };
}

/**
 * The built-in catalogue's plans, with the variables' defaults: what tests, the bench and the demo
 * sell when they say nothing else.
 */
export function builtInPlanTable(): PlanTable {
  return plainPlanTable(readCatalogue({ upstreams: {}, defaults: { timeoutMs: 15_000, maxConnections: 256 } }));
}

/** An API's service moved to `base` (a shorthand): its document and readiness check with it. */
function upstreamOf(api: CatalogueApi, base: string): Pick<CatalogueApi, 'upstream' | 'openapi' | 'health'> {
  const upstream = base.replace(/\/+$/, '');
  const moved = (url: string): string => (url.startsWith(`${api.upstream}/`) ? `${upstream}${url.slice(api.upstream.length)}` : url);
  return { upstream, openapi: moved(api.openapi), health: moved(api.health) };
}

/** `OPERATOR_EMAILS` as normalised addresses; one that is no address is refused by name. */
function parseOperatorEmails(value: string | undefined): string[] {
  const emails: string[] = [];
  for (const part of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const email = normaliseEmail(part);
    if (email === null) throw new Error(`OPERATOR_EMAILS names '${part}', which is not an email address; give addresses, comma-separated`);
    if (!emails.includes(email)) emails.push(email);
  }
  return emails;
}

const url = { type: 'string', pattern: '^https?://[^\\s]+$', description: 'an http(s) URL' };

/** Every variable the gateway reads, with its default; documented in docs/operating.md's table. */
export const ENV_SCHEMA: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    GATEWAY_ROLE: { type: 'string', enum: ['all', 'api', 'worker'], default: 'all' },
    REDIS_URL: { type: 'string', pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' },
    REDIS_CLUSTER_NODES: {
      type: 'string',
      pattern: `^\\s*${CLUSTER_NODE}(\\s*,\\s*${CLUSTER_NODE})*\\s*,?\\s*$`,
      description: 'host:port pairs, comma-separated (such as 10.0.0.1:7000,10.0.0.2:7000)',
    },
    STORE_PATH: { type: 'string', minLength: 1, default: DEFAULT_STORE_PATH, description: 'a file path (or :memory:)' },
    ADMIN_TOKEN: secretSchema(),
    ADMIN_TOKEN_FILE: { type: 'string', minLength: 1, description: 'a file path' },
    OPERATOR_EMAILS: { type: 'string', minLength: 3, description: 'email addresses, comma-separated' },
    KEY_HEADER: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$', default: 'x-tollgate-key', description: 'an HTTP header name' },
    CATALOGUE_FILE: { type: 'string', minLength: 1, description: 'a file path (.json, or YAML)' },
    BURGER_URL: url,
    TOKEN_URL: url,
    LOGS_URL: url,
    PROXY_SECRET: secretSchema(),
    PLANS_FILE: { type: 'string', minLength: 1 },
    QUOTA_FAIL_MODE: { type: 'string', enum: ['closed', 'open'], default: 'closed' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    REDIS_TIMEOUT_MS: { type: 'integer', minimum: 5, maximum: 10000, default: 250 },
    UPSTREAM_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 300000, default: 15000 },
    UPSTREAM_MAX_SOCKETS: { type: 'integer', minimum: 1, maximum: 10000, default: 256 },
    SIGNUPS_PER_HOUR: { type: 'integer', minimum: 1, maximum: 100000, default: 5 },
    KEYS_CREATED_PER_DAY: { type: 'integer', minimum: 1, maximum: 100000, default: 100 },
    TEAM_MAX_MEMBERS: { type: 'integer', minimum: 1, maximum: 10000, default: 25 },
    TEAM_MAX_PENDING_INVITES: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
    KEYS_REVOKED_PER_DAY: { type: 'integer', minimum: 1, maximum: 100000, default: 100 },
    CORS_ORIGINS: { type: 'string', pattern: '^\\s*(\\*|https?://[^/\\s,]+)(\\s*,\\s*(\\*|https?://[^/\\s,]+))*\\s*$', description: '* or a comma-separated list of origins such as https://app.example.com' },
    METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535, description: 'a port number' },
    TRUSTED_PROXIES: { type: 'string', minLength: 1, description: 'addresses or CIDR ranges of trusted proxies, comma-separated (or loopback, linklocal, uniquelocal)' },
    SMTP_URL: { type: 'string', pattern: '^smtps?://[^\\s/]+/?$', description: 'an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587' },
    MAIL_FROM: { type: 'string', minLength: 3, maxLength: 200, pattern: '@', default: 'Tollgate <no-reply@localhost>', description: 'a sender such as Tollgate <no-reply@example.com>' },
    SIGNINS_PER_HOUR: { type: 'integer', minimum: 1, maximum: 100000, default: 10 },
    SESSION_TTL_HOURS: { type: 'integer', minimum: 1, maximum: 8760, default: 168 },
    PUBLIC_URL: { type: 'string', pattern: '^https?://[^/\\s?#]+$', description: 'an origin such as https://api.example.com (no path)' },
    FORWARD_AUTHORIZATION: apiList,
    FORWARD_SET_COOKIE: apiList,
    STRIPE_SECRET_KEY: { type: 'string', pattern: '^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,}$', description: 'a Stripe secret or restricted key (sk_live_…, sk_test_…)' },
    STRIPE_WEBHOOK_SECRET: { type: 'string', pattern: '^whsec_[A-Za-z0-9_+/=]{8,}$', description: 'a webhook signing secret (whsec_…), as tollgate billing sync prints it' },
    STRIPE_API_BASE: { type: 'string', pattern: '^https?://[^/\\s?#]+/?$', description: 'the base URL of a Stripe-compatible API, such as http://127.0.0.1:12111 (no path)' },
    STRIPE_TEST_CLOCKS: { type: 'boolean', default: false, description: 'true or false' },
    STRIPE_AUTOMATIC_TAX: { type: 'boolean', default: false, description: 'true or false' },
    SUPPORT_EMAIL: { type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', description: 'an email address' },
    BILLING_GRACE_DAYS: { type: 'integer', minimum: 0, maximum: 60, default: 7 },
    BILLING_RECONCILE_SECONDS: { type: 'integer', minimum: 5, maximum: 86400, default: 900 },
    WEBHOOKS_ALLOW_PRIVATE: { type: 'boolean', default: false, description: 'true or false' },
    WEBHOOK_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 30000, default: 10000 },
    QUOTA_ALERTS: { type: 'boolean', default: true, description: 'true or false' },
    WEBHOOK_SENDS_PER_HOUR: { type: 'integer', minimum: 1, maximum: 100000, default: 60 },
    WEBHOOK_PENDING_PER_ACCOUNT: { type: 'integer', minimum: 10, maximum: 1000000, default: 1000 },
    USAGE_EVENTS: { type: 'string', enum: ['off', 'redis', 'http'], default: 'off' },
    USAGE_EVENTS_URL: { type: 'string', pattern: '^https?://[^\\s]+$', description: 'an http(s) URL that takes application/cloudevents-batch+json' },
    USAGE_EVENTS_REDIS_URL: { type: 'string', pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' },
    USAGE_EVENTS_BUFFER: { type: 'integer', minimum: 100, maximum: 1000000, default: 10000 },
    USAGE_EVENTS_SOURCE: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\s]+$', description: 'a URI reference naming this gateway, such as urn:tollgate:gateway:eu-1' },
    USAGE_STREAM_SHARDS: { type: 'integer', minimum: 1, maximum: 256 },
    USAGE_STREAM_MAXLEN: { type: 'integer', minimum: 1000, maximum: 100000000, default: 1000000 },
    SECRETS_KEY: { type: 'string', minLength: 1, description: '32 random bytes as 64 hex digits or base64, such as the output of openssl rand -base64 32' },
    SECRETS_KEY_PREVIOUS: { type: 'string', minLength: 1, description: 'keys SECRETS_KEY replaced, comma-separated, each as SECRETS_KEY is written' },
  },
};

/** One key of `variable`: 64 hex digits or base64 (either alphabet) of exactly 32 bytes, not all one byte (a placeholder). */
function parseSecretsKey(variable: string, value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== 32) throw new Error(`${variable} must be 32 random bytes written as 64 hex digits or in base64 (openssl rand -base64 32 makes one)`);
  if (key.every((byte) => byte === key[0])) throw new Error(`${variable} is one byte repeated, a placeholder: make a key with openssl rand -base64 32`);
  return key;
}

/** `SECRETS_KEY` and `SECRETS_KEY_PREVIOUS` as keys; a previous key equal to the current one is dropped. */
function parseSecretsKeys(e: Env): SecretsKeys {
  const current = e.SECRETS_KEY === undefined ? undefined : parseSecretsKey('SECRETS_KEY', e.SECRETS_KEY);
  const previous = (e.SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => parseSecretsKey('SECRETS_KEY_PREVIOUS', part))
    .filter((key) => !current?.equals(key));
  return current ? { current, previous } : { previous };
}

/** The usage stream's settings from the environment; undefined when it is off. */
function usageConfig(e: Env, clusterNodes: ClusterNode[] | undefined): UsageStreamConfig | undefined {
  const stray = (['USAGE_EVENTS_URL', 'USAGE_EVENTS_REDIS_URL', 'USAGE_STREAM_SHARDS'] as const).find((name) => e[name] !== undefined);
  if (e.USAGE_EVENTS === 'off') {
    if (stray) throw new Error(`${stray} is set but USAGE_EVENTS is off; set USAGE_EVENTS=redis or http, or unset ${stray}`);
    return undefined;
  }
  const common = { capacity: e.USAGE_EVENTS_BUFFER, ...(e.USAGE_EVENTS_SOURCE ? { source: e.USAGE_EVENTS_SOURCE } : {}) };
  if (e.USAGE_EVENTS === 'http') {
    if (!e.USAGE_EVENTS_URL) throw new Error('USAGE_EVENTS=http needs USAGE_EVENTS_URL: where the batches of CloudEvents are POSTed');
    return { ...common, sink: 'http', url: e.USAGE_EVENTS_URL };
  }
  if (e.USAGE_EVENTS_URL) throw new Error('USAGE_EVENTS_URL is for USAGE_EVENTS=http; the redis sink uses USAGE_EVENTS_REDIS_URL or the store’s Redis');
  const own = e.USAGE_EVENTS_REDIS_URL;
  if (!own && !e.REDIS_URL && !clusterNodes) throw new Error('USAGE_EVENTS=redis needs a Redis: set USAGE_EVENTS_REDIS_URL, or run the store on REDIS_URL or REDIS_CLUSTER_NODES');
  const onCluster = !own && clusterNodes !== undefined;
  return {
    ...common,
    sink: 'redis',
    ...(own ? { redisUrl: own } : onCluster ? { clusterNodes } : { redisUrl: e.REDIS_URL as string }),
    shards: e.USAGE_STREAM_SHARDS ?? (onCluster ? 8 : 1),
    maxLen: e.USAGE_STREAM_MAXLEN,
  };
}

/** The billing settings, from the Stripe variables; undefined without a key. */
function billingConfig(e: Env): BillingConfig | undefined {
  if (!e.STRIPE_SECRET_KEY) {
    const stray = (['STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE'] as const).find((name) => e[name] !== undefined) ?? (e.STRIPE_TEST_CLOCKS ? 'STRIPE_TEST_CLOCKS' : e.STRIPE_AUTOMATIC_TAX ? 'STRIPE_AUTOMATIC_TAX' : undefined);
    if (stray) throw new Error(`${stray} is set but STRIPE_SECRET_KEY is not; set STRIPE_SECRET_KEY to take card payments, or unset ${stray}`);
    return undefined;
  }
  if (!e.PUBLIC_URL) throw new Error('STRIPE_SECRET_KEY needs PUBLIC_URL: the portal’s origin (such as https://api.example.com), where Stripe Checkout and the billing portal send people back');
  if (e.STRIPE_TEST_CLOCKS && !e.STRIPE_SECRET_KEY.includes('_test_')) throw new Error('STRIPE_TEST_CLOCKS works with a test-mode key (sk_test_…) only');
  const billing: BillingConfig = {
    secretKey: e.STRIPE_SECRET_KEY,
    publicUrl: e.PUBLIC_URL,
    graceDays: e.BILLING_GRACE_DAYS,
    reconcileSeconds: e.BILLING_RECONCILE_SECONDS,
    testClocks: e.STRIPE_TEST_CLOCKS,
    automaticTax: e.STRIPE_AUTOMATIC_TAX,
  };
  if (e.STRIPE_WEBHOOK_SECRET) billing.webhookSecret = e.STRIPE_WEBHOOK_SECRET;
  if (e.STRIPE_API_BASE) {
    const base = new URL(e.STRIPE_API_BASE);
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    billing.apiBase = { host: base.hostname.replace(/^\[|\]$/g, ''), port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443, protocol };
  }
  return billing;
}

/**
 * Parses the environment (and the catalogue or plan file it names) once; throws an Error whose
 * message is one line naming the bad variable or the bad place in the file.
 */
export function loadConfig(env: Record<string, string | undefined>, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): GatewayConfig {
  const e = parseEnv<Env>(ENV_SCHEMA, env);
  if (e.REDIS_URL && e.REDIS_CLUSTER_NODES) {
    throw new Error('REDIS_URL and REDIS_CLUSTER_NODES are both set; set REDIS_URL for one Redis or REDIS_CLUSTER_NODES for a Redis Cluster, not both');
  }
  const catalogueSource = catalogueSourceOf(e);
  const catalogue = readCatalogue(catalogueSource, readFile);
  const storePath = e.STORE_PATH === MEMORY_STORE_PATH ? MEMORY_STORE_PATH : path.resolve(e.STORE_PATH);
  if (e.GATEWAY_ROLE !== 'all' && !e.REDIS_URL && !e.REDIS_CLUSTER_NODES) {
    throw new Error(`GATEWAY_ROLE=${e.GATEWAY_ROLE} needs a store the processes share (REDIS_URL or REDIS_CLUSTER_NODES); on the embedded store one process does everything (GATEWAY_ROLE=all)`);
  }
  const config: GatewayConfig = {
    port: e.PORT,
    role: e.GATEWAY_ROLE,
    storePath,
    keyHeader: e.KEY_HEADER.toLowerCase(),
    catalogue,
    catalogueSource,
    quotaFailMode: e.QUOTA_FAIL_MODE,
    logLevel: e.LOG_LEVEL,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    signupsPerHour: e.SIGNUPS_PER_HOUR,
    keysCreatedPerDay: e.KEYS_CREATED_PER_DAY,
    teamMaxMembers: e.TEAM_MAX_MEMBERS,
    teamMaxPendingInvites: e.TEAM_MAX_PENDING_INVITES,
    keysRevokedPerDay: e.KEYS_REVOKED_PER_DAY,
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    trust: compileTrust(e.TRUSTED_PROXIES),
    mailFrom: e.MAIL_FROM,
    signInsPerHour: e.SIGNINS_PER_HOUR,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    warnings: [...publicUrlWarnings(e.PUBLIC_URL, e.TRUSTED_PROXIES), ...supersededShorthands(e)],
    operatorEmails: parseOperatorEmails(e.OPERATOR_EMAILS),
    events: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE, webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS, quotaAlerts: e.QUOTA_ALERTS, sendsPerHour: e.WEBHOOK_SENDS_PER_HOUR, pendingPerAccount: e.WEBHOOK_PENDING_PER_ACCOUNT },
    secretsKeys: parseSecretsKeys(e),
  };
  const tokenFile = e.ADMIN_TOKEN_FILE ?? (storePath === MEMORY_STORE_PATH ? undefined : path.join(path.dirname(storePath), DEFAULT_ADMIN_TOKEN_FILE));
  if (tokenFile !== undefined) config.adminTokenFile = path.resolve(tokenFile);
  const clusterNodes = e.REDIS_CLUSTER_NODES ? parseClusterNodes(e.REDIS_CLUSTER_NODES) : undefined;
  // A worker serves no calls: it has no usage to stream.
  const usage = e.GATEWAY_ROLE === 'worker' ? undefined : usageConfig(e, clusterNodes);
  if (usage) config.events.usage = usage;
  if (e.SMTP_URL) config.smtpUrl = e.SMTP_URL;
  if (e.PUBLIC_URL) config.publicUrl = e.PUBLIC_URL;
  const billing = billingConfig(e);
  if (billing) config.billing = billing;
  if (e.SUPPORT_EMAIL) config.supportEmail = e.SUPPORT_EMAIL;
  if (e.METRICS_PORT !== undefined) config.metricsPort = e.METRICS_PORT;
  if (e.REDIS_URL) config.redisUrl = e.REDIS_URL;
  if (clusterNodes) config.redisClusterNodes = clusterNodes;
  if (e.ADMIN_TOKEN) config.adminToken = e.ADMIN_TOKEN;
  if (e.PROXY_SECRET) config.proxySecret = e.PROXY_SECRET;
  if (config.keyHeader.startsWith('x-tollgate-') && config.keyHeader !== 'x-tollgate-key') {
    throw new Error(`KEY_HEADER must not be another x-tollgate-* header (those are reserved for the gateway)`);
  }
  return Object.freeze(config);
}

/** What the operator CLI reads besides the gateway's own configuration. */
export interface CliConfig {
  gateway: GatewayConfig;
  /** `TOLLGATE_URL`: a running gateway to act through (its admin API); unset: the store directly. */
  tollgateUrl?: string;
}

const CLI_ENV_SCHEMA: QuerySchema = {
  type: 'object',
  properties: { TOLLGATE_URL: { type: 'string', pattern: '^https?://[^\\s?#]+$', description: "a gateway's URL such as http://127.0.0.1:8080" } },
};

/** The CLI's configuration: the gateway's (same variables, same store), and where a running gateway is. */
export function loadCliConfig(env: Record<string, string | undefined>): CliConfig {
  const gateway = loadConfig(env);
  const e = parseEnv<{ TOLLGATE_URL?: string }>(CLI_ENV_SCHEMA, env);
  return e.TOLLGATE_URL ? { gateway, tollgateUrl: e.TOLLGATE_URL.replace(/\/+$/, '') } : { gateway };
}
