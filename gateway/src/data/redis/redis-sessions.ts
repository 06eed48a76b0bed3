import type { RedisClient } from './redis-client';
import { secondsUntil } from '../../domain/windows';
import { redisKeys } from './redis-keys';
import { KEEP_AFTER_END_SECONDS, attemptWindow, sha256 } from '../session-store';
import type { CodeCheck, Session, SessionStore } from '../session-store';
import type { StoreGuard } from './store-guard';

// One key each: a check and its try are one atomic step, so concurrent guesses share the 5 tries.
const CHECK_CODE_SCRIPT = `
local f = redis.call('HMGET', KEYS[1], 'hash', 'expires', 'tries')
if not f[1] then return {'none', 0} end
if tonumber(f[2]) <= tonumber(ARGV[2]) then return {'expired', 0} end
if f[1] == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return {'ok', 0}
end
local left = redis.call('HINCRBY', KEYS[1], 'tries', -1)
if left <= 0 then redis.call('DEL', KEYS[1]) end
return {'wrong', left}
`;

const COUNT_ATTEMPT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return value
`;

interface SessionScripts {
  tollgateCheckCode(key: string, hash: string, nowMs: number): Promise<[CodeCheck['outcome'], number]>;
  tollgateCountAttempt(key: string, ttlSeconds: number): Promise<number>;
}

/** Seconds a record ending at `endMs` is kept: to its end, then {@link KEEP_AFTER_END_SECONDS}. */
const ttlUntil = (endMs: number, nowMs: number): number => secondsUntil(endMs, nowMs) + KEEP_AFTER_END_SECONDS;

/** Sessions, codes and sign-in counters in Redis, every one a single key with a TTL. */
export function createRedisSessionStore(redis: RedisClient, deps: { guard: StoreGuard; clock: () => number }): SessionStore {
  const { guard, clock } = deps;
  redis.defineCommand('tollgateCheckCode', { numberOfKeys: 1, lua: CHECK_CODE_SCRIPT });
  redis.defineCommand('tollgateCountAttempt', { numberOfKeys: 1, lua: COUNT_ATTEMPT_SCRIPT });
  const scripts = redis as unknown as SessionScripts;

  return {
    putSession: (tokenHash, session) =>
      guard.run('put_session', async () => {
        await redis.set(redisKeys.session(tokenHash), JSON.stringify(session), 'EX', ttlUntil(Date.parse(session.expires_at), clock()));
      }),
    getSession: (tokenHash) =>
      guard.run('get_session', async () => {
        const value = await redis.get(redisKeys.session(tokenHash));
        return value === null ? undefined : (JSON.parse(value) as Session);
      }),
    deleteSession: (tokenHash) =>
      guard.run('delete_session', async () => {
        await redis.del(redisKeys.session(tokenHash));
      }),
    putCode: (subject, code) =>
      guard.run('put_code', async () => {
        const key = redisKeys.code(sha256(subject));
        await redis.multi().del(key).hset(key, 'hash', code.hash, 'expires', code.expiresAtMs, 'tries', code.tries).expire(key, ttlUntil(code.expiresAtMs, clock())).exec();
      }),
    checkCode: (subject, hash, nowMs) =>
      guard.run('check_code', async (): Promise<CodeCheck> => {
        const [outcome, left] = await scripts.tollgateCheckCode(redisKeys.code(sha256(subject)), hash, nowMs);
        return outcome === 'wrong' ? { outcome, triesLeft: Math.max(0, Number(left)) } : ({ outcome } as CodeCheck);
      }),
    countAttempt: (subject, nowMs, window = 'hour') =>
      guard.run('count_sign_in', () => {
        const w = attemptWindow(window, nowMs);
        return scripts.tollgateCountAttempt(redisKeys.signIns(sha256(subject), w.id), secondsUntil(w.endMs, nowMs) + 60);
      }),
  };
}
