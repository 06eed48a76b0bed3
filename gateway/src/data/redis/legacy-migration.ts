import type { RedisClient } from './redis-client';
import { legacyKeyIdFromHash } from '../../domain/api-key';
import { normaliseEmail } from '../../domain/email';
import { dayWindow, monthWindow } from '../../domain/windows';
import { MIGRATE_SCRIPT } from './scripts/key-scripts';
import { encodeSecret, subscriptionField } from './record-codec';
import { indexMember, redisKeys } from './redis-keys';

const SUB_PREFIX = subscriptionField('');

/**
 * Moves one key made before accounts (`gw:{key_X}:key`) into an account of one key, `acc_X`: the
 * same 24 hex digits, so the key's secret still finds it (see parseApiKey). Its subscriptions
 * become the account's, and this month's and today's counters are carried over, so the upgrade
 * resets no quota. Idempotent and safe from several gateways at once: the script writes only if
 * the account does not exist yet. The old record is left in place (a rollback still finds it).
 * Returns whether the account exists afterwards.
 */
export async function migrateLegacyKeyById(redis: RedisClient, keyId: string, nowMs: number, apis: readonly string[] = []): Promise<boolean> {
  const hex = keyId.slice(4);
  const accountId = `acc_${hex}`;
  const old = await redis.hgetall(redisKeys.legacy.record(keyId));
  if (old.hash === undefined) return false;
  if (await redis.exists(redisKeys.account(accountId))) return true;
  const subscriptions = Object.entries(old).filter(([name]) => name.startsWith(SUB_PREFIX));
  let email = normaliseEmail(old.owner ?? '');
  if (email && !(await redis.set(redisKeys.email(email), accountId, 'NX')) && (await redis.get(redisKeys.email(email))) !== accountId) email = null;
  const month = monthWindow(nowMs).id;
  const day = dayWindow(nowMs).id;
  const names = [...new Set([...apis, ...subscriptions.map(([name]) => name.slice(SUB_PREFIX.length))])];
  const counters = names.flatMap((api) => [
    [redisKeys.legacy.month(keyId, api, month), redisKeys.month(accountId, api, month)],
    [redisKeys.legacy.day(keyId, api, day), redisKeys.day(accountId, api, day)],
  ]);
  const read = redis.pipeline();
  for (const [from] of counters) read.get(from!).ttl(from!);
  const replies = ((await read.exec()) ?? []).map(([, value]) => value);
  const counterArgs = counters.flatMap((_, i) => [Number(replies[2 * i] ?? 0), Math.max(1, Number(replies[2 * i + 1] ?? 1))]);
  const createdMs = Date.parse(old.created_at ?? '') || nowMs;
  const revokedMs = old.revoked_at ? Date.parse(old.revoked_at) || nowMs : 0;
  const account = { email: email ?? '', name: old.owner ?? '', status: 'active', created_at: old.created_at ?? new Date(nowMs).toISOString(), ...Object.fromEntries(subscriptions) };
  // The secret was never stored, so nothing of it can be shown: the prefix is only `tg_`.
  const key = { name: 'default', created_at: account.created_at, prefix: 'tg_', last4: '', hash: old.hash, expires_ms: '0', expires_at: '', ...(old.revoked_at ? { revoked_at: old.revoked_at } : {}) };
  await redis.eval(
    MIGRATE_SCRIPT,
    3 + counters.length,
    redisKeys.account(accountId),
    redisKeys.key(accountId, keyId),
    redisKeys.keys(accountId),
    ...counters.map(([, to]) => to!),
    Object.keys(account).length,
    Object.keys(key).length,
    old.hash,
    encodeSecret({ keyId, expiresAtMs: 0, revokedAtMs: revokedMs, graceUntilMs: 0 }),
    indexMember(createdMs, keyId),
    ...Object.entries(account).flat(),
    ...Object.entries(key).flat(),
    ...counterArgs,
  );
  await redis.zadd(redisKeys.accountIndex(), 0, indexMember(createdMs, accountId));
  return true;
}

/** {@link migrateLegacyKeyById} for the key a presented secret's hash names. */
export function migrateLegacyKey(redis: RedisClient, keyHash: string, nowMs: number, apis: readonly string[] = []): Promise<boolean> {
  return migrateLegacyKeyById(redis, legacyKeyIdFromHash(keyHash), nowMs, apis);
}

/** Migrates every key in the old index; returns how many were found. */
export async function migrateLegacyKeys(redis: RedisClient, nowMs: number, apis: readonly string[]): Promise<number> {
  const ids = await redis.smembers(redisKeys.legacy.keyIndex());
  for (const id of ids) await migrateLegacyKeyById(redis, id, nowMs, apis);
  return ids.length;
}
