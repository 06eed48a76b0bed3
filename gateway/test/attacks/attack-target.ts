import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Response } from 'supertest';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import type { PlanTable } from '../../src/domain/plans';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

/**
 * What the attack suite shares: every attack runs against a gateway on the embedded SQLite store
 * and on a real redis-server, with a real SMTP server receiving the mail.
 */

/** The stores each attack is run against. */
export const STORE_KINDS = ['sqlite', 'redis'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** Plans with a price, for the attacks on paying: token free, pro and scale (EUR), burger free and pro (USD). */
export const PAID_PLANS: PlanTable = {
  token: {
    playground_per_day: 0,
    plans: {
      free: { monthly_quota: 100, rate_per_second: 10, price: 0, currency: 'EUR' },
      pro: { monthly_quota: 1000, rate_per_second: 10, price: 2500, currency: 'EUR' },
      scale: { monthly_quota: 10_000, rate_per_second: 10, price: 9900, currency: 'EUR' },
    },
  },
  burger: {
    playground_per_day: 0,
    plans: { free: { monthly_quota: 100, rate_per_second: 10, price: 0, currency: 'USD' }, pro: { monthly_quota: 1000, rate_per_second: 10, price: 900, currency: 'USD' } },
  },
};

/** A Tuesday noon, far from a UTC day's or hour's end. */
export const ATTACK_START = Date.parse('2026-03-10T12:00:00.000Z');

/** An echo service, a Redis, an SMTP inbox and a folder for SQLite files, for one test file. */
export interface AttackWorld {
  upstream: EchoUpstream;
  redis: RedisServer;
  inbox: SmtpInbox;
  /** A gateway on `kind`: a new SQLite file, or the Redis emptied. One at a time: the one before is closed. */
  gateway(kind: StoreKind, env?: Record<string, string>, plans?: PlanTable): Promise<GatewayFixture>;
  close(): Promise<void>;
}

export async function startAttackWorld(): Promise<AttackWorld> {
  const [upstream, redis, inbox] = await Promise.all([startEchoUpstream(), startRedisServer(), startSmtpInbox()]);
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-attacks-'));
  let current: GatewayFixture | undefined;
  let files = 0;
  return {
    upstream,
    redis,
    inbox,
    async gateway(kind, env = {}, plans) {
      await current?.close();
      current = await buildGateway({
        plans,
        upstream: upstream.url,
        redisUrl: kind === 'redis' ? redis.url : undefined,
        sqlitePath: kind === 'sqlite' ? path.join(dir, `attack-${++files}.db`) : undefined,
        start: ATTACK_START,
        env: { SMTP_URL: inbox.url, TRUSTED_PROXIES: 'loopback', ...env },
      });
      return current;
    },
    async close() {
      await current?.close().catch(() => undefined);
      await Promise.all([upstream.close(), redis.stop(), inbox.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One world for a test file: started before its tests, closed after them. The object is filled in
 * when it has started (as `usePortal` does).
 */
export function useAttackWorld(): AttackWorld {
  const world = {} as AttackWorld;
  beforeAll(async () => {
    Object.assign(world, await startAttackWorld());
  });
  afterAll(async () => {
    await world.close?.();
  });
  return world;
}

/** The session cookie's value and attributes set by an answer. */
export function sessionCookieSet(res: Response): { value: string; attributes: string[] } | undefined {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tg_session='));
  if (!header) return undefined;
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  return { value: pair!.slice('tg_session='.length), attributes };
}

/** The code and link token of the newest mail to `email`. */
export function lastCode(inbox: SmtpInbox, email: string): { code: string; token: string | undefined } {
  const mail = inbox.to(email).at(-1);
  if (!mail) throw new Error(`no mail reached ${email}`);
  const { code, link } = signInCode(mail);
  return { code, token: link === undefined ? undefined : (new URL(link).searchParams.get('token') ?? undefined) };
}

/** A client network, as the gateway sees it behind its (loopback) proxy. */
export const from = (network: string): Record<string, string> => ({ 'x-forwarded-for': network });

/** A signed-in portal session: asks a code from `network`, and types it from there. */
export async function signIn(gw: GatewayFixture, inbox: SmtpInbox, email: string, network = '10.0.0.1'): Promise<{ cookie: string; csrf: string; accountId: string }> {
  const asked = await request(gw.app).post('/dashboard/v1/sign-in').set(from(network)).send({ email });
  if (asked.status !== 202) throw new Error(`no code for ${email}: ${asked.status} ${asked.body.message}`);
  const res = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(from(network)).send({ email, code: lastCode(inbox, email).code });
  if (res.status !== 200) throw new Error(`no session for ${email}: ${res.status} ${res.body.message}`);
  return { cookie: sessionCookieSet(res)!.value, csrf: res.body.data.csrf_token as string, accountId: res.body.data.account.id as string };
}

/** The headers a signed-in browser sends with a change: its session cookie and CSRF token. */
export const withSession = (session: { cookie: string; csrf: string }): Record<string, string> => ({ cookie: `tg_session=${session.cookie}`, 'x-csrf-token': session.csrf });

/** A key made by the operator (an account of one key, its address proven), subscribed to token's free plan. */
export async function operatorKey(gw: GatewayFixture, owner: string): Promise<{ key: string; id: string; accountId: string }> {
  const res = await request(gw.app).post('/admin/v1/keys').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ owner, subscriptions: { token: 'free' } });
  if (res.status !== 201) throw new Error(`no key for ${owner}: ${res.status} ${res.body.message}`);
  return { key: res.body.data.key as string, id: res.body.data.id as string, accountId: res.body.data.account_id as string };
}
