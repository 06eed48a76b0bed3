import type { RedisClient } from './redis-client';
import { dayWindow, secondsUntil } from '../../domain/windows';
import { redisKeys } from './redis-keys';
import { KEEP_AFTER_END_SECONDS, attemptWindow, sha256 } from '../session-store';
import type { CodeCheck, LinkCheck, Session, SessionStore } from '../session-store';
import type { StoreGuard } from './store-guard';

// A subject's codes are one hash, a field per slot: `hash|tokenHash|expiresMs|tries`. Its two daily
// check counters share its hash tag, so each step below is one script on one Cluster slot.

/**
 * KEYS: 1 the codes. ARGV: 1 slot, 2 its record, 3 now (ms), 4 max live codes of other slots,
 * 5 ms a code is kept after its end, 6 the hash's TTL (s). Drops gone codes; returns 0 when stored,
 * else the end of the first live code of another slot (nothing stored).
 */
const PUT_CODE_SCRIPT = `
local now, keep = tonumber(ARGV[3]), tonumber(ARGV[5])
local all = redis.call('HGETALL', KEYS[1])
local live, first = 0, false
for i = 1, #all, 2 do
  local expires = tonumber(string.match(all[i + 1], '^[^|]*|[^|]*|(%d+)|'))
  if not expires or expires + keep <= now then
    redis.call('HDEL', KEYS[1], all[i])
  elseif all[i] ~= ARGV[1] and expires > now then
    live = live + 1
    if not first or expires < first then first = expires end
  end
end
if live >= tonumber(ARGV[4]) then return first end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 0
`;

/**
 * KEYS: 1 the codes, 2 the subject's checks today, 3 the slot's checks today. ARGV: 1 slot,
 * 2 the typed digits' hash, 3 now (ms), 4 ms a code is kept after its end, 5 checks per slot,
 * 6 checks per subject, 7 the counters' TTL (s). Returns {outcome, tries left or limited scope}.
 */
const CHECK_CODE_SCRIPT = `
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return {'none', 0} end
local hash, token, expires, tries = string.match(record, '^([^|]*)|([^|]*)|(%d+)|(%-?%d+)$')
local now = tonumber(ARGV[3])
if not hash or tonumber(expires) + tonumber(ARGV[4]) <= now or tonumber(tries) <= 0 then return {'none', 0} end
if tonumber(expires) <= now then return {'expired', 0} end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[5]) then return {'limited', 'slot'} end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[6]) then return {'limited', 'subject'} end
for k = 2, 3 do
  if redis.call('INCR', KEYS[k]) == 1 then redis.call('EXPIRE', KEYS[k], ARGV[7]) end
end
if hash == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return {'ok', 0}
end
local left = tonumber(tries) - 1
redis.call('HSET', KEYS[1], ARGV[1], hash .. '|' .. token .. '|' .. expires .. '|' .. left)
return {'wrong', left}
`;

/** KEYS: 1 the codes. ARGV: 1 the link token's hash, 2 now (ms), 3 ms a code is kept after its end. */
const USE_LINK_SCRIPT = `
local now = tonumber(ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local token, expires = string.match(all[i + 1], '^[^|]*|([^|]*)|(%d+)|')
  if token == ARGV[1] and tonumber(expires) + tonumber(ARGV[3]) > now then
    if tonumber(expires) <= now then return 'expired' end
    redis.call('HDEL', KEYS[1], all[i])
    return 'ok'
  end
end
return 'none'
`;

const COUNT_ATTEMPT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return value
`;

/**
 * KEYS: 1 an account's session index. ARGV: 1 the session's hash, 2 when it is dropped (ms),
 * 3 now (ms). Drops members past their end; the index lives as long as its longest session.
 */
const INDEX_SESSION_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(last[2]) - tonumber(ARGV[3]))) end
return 1
`;

/**
 * KEYS: 1 a session. ARGV: 1 when it was last seen. Changes nothing for a session that is gone
 * (returns false); else returns its account and end, for its index.
 */
const TOUCH_SESSION_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if not value then return false end
local session = cjson.decode(value)
session.last_seen_at = ARGV[1]
redis.call('SET', KEYS[1], cjson.encode(session), 'KEEPTTL')
return {session.account_id, session.expires_at}
`;

interface SessionScripts {
  tollgateIndexSession(key: string, tokenHash: string, dropAtMs: number, nowMs: number): Promise<number>;
  tollgateTouchSession(key: string, lastSeenAt: string): Promise<[string, string] | null>;
  tollgatePutCode(key: string, ...args: (string | number)[]): Promise<number>;
  tollgateCheckCode(...args: (string | number)[]): Promise<[CodeCheck['outcome'], number | string]>;
  tollgateUseLink(key: string, tokenHash: string, nowMs: number, keepMs: number): Promise<LinkCheck['outcome']>;
  tollgateCountAttempt(key: string, ttlSeconds: number): Promise<number>;
}

const KEEP_MS = KEEP_AFTER_END_SECONDS * 1000;

/** Seconds a record ending at `endMs` is kept: to its end, then {@link KEEP_AFTER_END_SECONDS}. */
const ttlUntil = (endMs: number, nowMs: number): number => secondsUntil(endMs, nowMs) + KEEP_AFTER_END_SECONDS;

/** Sessions, codes and sign-in counters in Redis, every one a single key with a TTL. */
export function createRedisSessionStore(redis: RedisClient, deps: { guard: StoreGuard; clock: () => number }): SessionStore {
  const { guard, clock } = deps;
  redis.defineCommand('tollgatePutCode', { numberOfKeys: 1, lua: PUT_CODE_SCRIPT });
  redis.defineCommand('tollgateCheckCode', { numberOfKeys: 3, lua: CHECK_CODE_SCRIPT });
  redis.defineCommand('tollgateUseLink', { numberOfKeys: 1, lua: USE_LINK_SCRIPT });
  redis.defineCommand('tollgateCountAttempt', { numberOfKeys: 1, lua: COUNT_ATTEMPT_SCRIPT });
  redis.defineCommand('tollgateIndexSession', { numberOfKeys: 1, lua: INDEX_SESSION_SCRIPT });
  redis.defineCommand('tollgateTouchSession', { numberOfKeys: 1, lua: TOUCH_SESSION_SCRIPT });
  const index = (tokenHash: string, accountId: string, expiresAt: string): Promise<number> =>
    scripts.tollgateIndexSession(redisKeys.sessionIndex(accountId), tokenHash, Date.parse(expiresAt) + KEEP_MS, clock());
  const readSession = async (tokenHash: string): Promise<Session | undefined> => {
    const value = await redis.get(redisKeys.session(tokenHash));
    return value === null ? undefined : (JSON.parse(value) as Session);
  };
  const scripts = redis as unknown as SessionScripts;

  return {
    // The session and its account's index are in two slots: the session first, so the index never
    // misses a live one (a member whose session is gone is dropped when listed).
    putSession: (tokenHash, session) =>
      guard.run('put_session', async () => {
        await redis.set(redisKeys.session(tokenHash), JSON.stringify(session), 'EX', ttlUntil(Date.parse(session.expires_at), clock()));
        await index(tokenHash, session.account_id, session.expires_at);
      }),
    getSession: (tokenHash) => guard.run('get_session', () => readSession(tokenHash)),
    deleteSession: (tokenHash) =>
      guard.run('delete_session', async () => {
        const session = await readSession(tokenHash);
        await redis.del(redisKeys.session(tokenHash));
        if (session) await redis.zrem(redisKeys.sessionIndex(session.account_id), tokenHash);
      }),
    // Indexed again as it is touched: a session made before the index existed is listed from its first use on.
    touchSession: (tokenHash, lastSeenAt) =>
      guard.run('touch_session', async () => {
        const touched = await scripts.tollgateTouchSession(redisKeys.session(tokenHash), lastSeenAt);
        if (touched) await index(tokenHash, touched[0], touched[1]);
      }),
    listSessions: (accountId) =>
      guard.run('list_sessions', async () => {
        const index = redisKeys.sessionIndex(accountId);
        const hashes = await redis.zrangebyscore(index, `(${clock()}`, '+inf');
        const found = await Promise.all(hashes.map(async (tokenHash) => ({ tokenHash, session: await readSession(tokenHash) })));
        const gone = found.filter((f) => !f.session).map((f) => f.tokenHash);
        if (gone.length > 0) await redis.zrem(index, ...gone);
        return found
          .flatMap((f) => (f.session ? [{ tokenHash: f.tokenHash, session: f.session }] : []))
          .sort((a, b) => a.session.created_at.localeCompare(b.session.created_at) || a.tokenHash.localeCompare(b.tokenHash));
      }),
    putCode: (subject, slot, code, { maxLive, nowMs }) =>
      guard.run('put_code', async () => {
        const record = [code.hash, code.tokenHash, code.expiresAtMs, code.tries].join('|');
        const first = await scripts.tollgatePutCode(redisKeys.code(sha256(subject)), slot, record, nowMs, maxLive, KEEP_MS, ttlUntil(code.expiresAtMs, nowMs));
        return first === 0 ? { stored: true as const } : { stored: false as const, freeAtMs: Number(first) };
      }),
    checkCode: (subject, slot, hash, nowMs, limits) =>
      guard.run('check_code', async (): Promise<CodeCheck> => {
        const subjectHash = sha256(subject);
        const day = dayWindow(nowMs);
        const keys = [redisKeys.code(subjectHash), redisKeys.codeChecks(subjectHash, day.id), redisKeys.codeChecks(subjectHash, day.id, sha256(slot))];
        const [outcome, detail] = await scripts.tollgateCheckCode(...keys, slot, hash, nowMs, KEEP_MS, limits.perSlot, limits.perSubject, secondsUntil(day.endMs, nowMs) + 60);
        if (outcome === 'wrong') return { outcome, triesLeft: Math.max(0, Number(detail)) };
        if (outcome === 'limited') return { outcome, scope: detail === 'slot' ? 'slot' : 'subject' };
        return { outcome } as CodeCheck;
      }),
    useLink: (subject, tokenHash, nowMs) =>
      guard.run('use_link', async (): Promise<LinkCheck> => ({ outcome: await scripts.tollgateUseLink(redisKeys.code(sha256(subject)), tokenHash, nowMs, KEEP_MS) })),
    countAttempt: (subject, nowMs, window = 'hour') =>
      guard.run('count_sign_in', () => {
        const w = attemptWindow(window, nowMs);
        return scripts.tollgateCountAttempt(redisKeys.signIns(sha256(subject), w.id), secondsUntil(w.endMs, nowMs) + 60);
      }),
    readAttempts: (subject, nowMs, window = 'hour') =>
      guard.run('read_sign_ins', async () => Number((await redis.get(redisKeys.signIns(sha256(subject), attemptWindow(window, nowMs).id))) ?? 0)),
  };
}
