import type { ApiPlans } from '../../../domain/plans';

// Names written into the script's source: plan files allow only these (plans-file.ts), and the
// built-in table keeps to them; anything else would be Lua code, not a name.
const LUA_SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function luaName(name: string): string {
  if (!LUA_SAFE_NAME.test(name)) throw new Error(`'${name}' cannot be written into the admission script: API and plan names are letters, digits, _ and -`);
  return `'${name}'`;
}

/**
 * The admission script of one API: one EVALSHA per call. It mirrors `decideAdmission`
 * (domain/admission.ts) step for step; the shared store contract suite runs both against the same
 * cases. The API's plan table is written into the script's source (the table is fixed for a
 * process's life), so a call sends six arguments instead of eighteen: with the keys, the arguments
 * were the largest part of the gateway's cost per admission. Gateways with different plan tables
 * run different scripts (each by its own SHA), as they must.
 *
 * KEYS: 1 account (hash), 2 secrets (hash), 3 second log (sorted set), 4 month counter, 5 day
 * counter, 6 playground log (sorted set of the day's playground calls, for refunds) — all tagged
 * with the account id, so one Cluster slot.
 * ARGV: 1 presented key hash, 2 now (ms), 3 unique log member, 4 month TTL (s), 5 day TTL (s),
 * 6 deadline (Unix ms).
 * Returns {outcome, plan, used, calls in the rolling second, ms until its oldest call leaves,
 * status, key id, and (admitted only) when the secret stops working (ms, 0 for never)}.
 *
 * The secret's entry (`keyId|expiresMs|revokedMs|graceUntilMs`) says which key it opens and
 * whether that key still may be used; the account holds the status and subscriptions shared by
 * all its keys, and the counters are the account's.
 *
 * The rate limit is a sliding log: the times of the calls admitted in the last second, trimmed on
 * every call, so no rolling one-second window ever holds more than the rate (a fixed window lets
 * twice the rate through across a boundary). Times are the gateways' clocks, and calls from
 * several gateways can reach Redis out of time order: a call must still see every entry of its
 * own last second, so the log is trimmed at two seconds, not one, and the count is of the call's
 * last second. It holds at most twice the rate (≤ 160 entries with the built-in plans), so it
 * stays small, and it is exact, unlike a sliding-window counter.
 * Nothing is written unless the call is admitted: a 401, 402, 403 or 429 charges nothing. A script
 * that reaches Redis after its deadline (the gateway already answered 503: Redis was frozen, or
 * the network held the command) returns 'late' and writes nothing either.
 */
export function admitScriptFor(api: string, apiPlans: ApiPlans, secondLogTtlSeconds: number): string {
  const plans = Object.entries(apiPlans.plans)
    .map(([name, p]) => `[${luaName(name)}] = {${Math.trunc(p.monthly_quota)}, ${Math.trunc(p.rate_per_second)}}`)
    .join(', ');
  return `
local PLANS = {${plans}}
local PLAYGROUND_PER_DAY = ${Math.trunc(apiPlans.playground_per_day)}
local SUBSCRIPTION_FIELD = 'sub:' .. ${luaName(api)}
local SECOND_LOG_TTL = ${Math.trunc(secondLogTtlSeconds)}
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[6]) then
  return {'late', '', 0, 0, 0, '', ''}
end
local entry = redis.call('HGET', KEYS[2], ARGV[1])
if not entry then return {'unknown_key', '', 0, 0, 0, '', ''} end
local f1 = string.find(entry, '|', 1, true)
local f2 = string.find(entry, '|', f1 + 1, true)
local f3 = string.find(entry, '|', f2 + 1, true)
local keyId = string.sub(entry, 1, f1 - 1)
local expires = tonumber(string.sub(entry, f1 + 1, f2 - 1))
local revoked = tonumber(string.sub(entry, f2 + 1, f3 - 1))
local grace = tonumber(string.sub(entry, f3 + 1))
local now = tonumber(ARGV[2])
if revoked > 0 then return {'revoked', '', 0, 0, 0, '', keyId} end
if grace > 0 and now >= grace then return {'rolled', '', 0, 0, 0, '', keyId} end
if expires > 0 and now >= expires then return {'expired', '', 0, 0, 0, '', keyId} end
local rec = redis.call('HMGET', KEYS[1], 'status', SUBSCRIPTION_FIELD)
if not rec[1] then return {'unknown_key', '', 0, 0, 0, '', ''} end
if rec[1] == 'suspended' then return {'suspended', '', 0, 0, 0, '', keyId} end
local status, plan = '', ''
if rec[2] then
  local bar = string.find(rec[2], '|', 1, true)
  status = string.sub(rec[2], 1, bar - 1)
  plan = string.sub(rec[2], bar + 1)
end
if status == 'active' then
  local limits = PLANS[plan]
  if not limits then return {'unknown_plan', plan, 0, 0, 0, status, keyId} end
  local quota, rate = limits[1], limits[2]
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 2000)
  local count = redis.call('ZCOUNT', KEYS[3], '(' .. (now - 1000), '+inf')
  local oldest = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. (now - 1000), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local reset = 0
  if oldest[2] then reset = math.max(0, tonumber(oldest[2]) + 1000 - now) end
  local used = tonumber(redis.call('GET', KEYS[4]) or '0')
  if used >= quota then return {'quota_exceeded', plan, used, count, reset, status, keyId} end
  if count >= rate then return {'rate_limited', plan, used, count, reset, status, keyId} end
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[3], SECOND_LOG_TTL)
  used = redis.call('INCR', KEYS[4])
  redis.call('EXPIRE', KEYS[4], ARGV[4])
  if not oldest[2] then reset = 1000 end
  local limit = grace
  if expires > 0 and (limit == 0 or expires < limit) then limit = expires end
  return {'admitted', plan, used, count + 1, reset, status, keyId, limit}
end
-- A subscription billing stopped ('lapsed:<reason>') gets no playground: its owner is told to pay.
if PLAYGROUND_PER_DAY <= 0 or string.sub(status, 1, 7) == 'lapsed:' then return {'no_subscription', plan, 0, 0, 0, status, keyId} end
local day = tonumber(redis.call('GET', KEYS[5]) or '0')
if day >= PLAYGROUND_PER_DAY then return {'playground_exhausted', plan, day, 0, 0, status, keyId} end
day = redis.call('INCR', KEYS[5])
redis.call('EXPIRE', KEYS[5], ARGV[5])
redis.call('ZADD', KEYS[6], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[6], ARGV[5])
return {'playground', plan, day, 0, 0, status, keyId}
`;
}

/**
 * Undoes one admitted call, at most once: a marker per call (its unique member) makes a second
 * refund a no-op. The call's entry leaves the second log (or the day's playground log), and the
 * counter it was charged to goes down by one (never below zero; it keeps its TTL). A refund knows
 * which counter it charged; a cancel sent after a timeout does not (the script may not even have
 * run), and takes the counter from the log the member is found in, or does nothing.
 * KEYS: 1 second log, 2 month counter, 3 playground log, 4 day counter, 5 refund marker.
 * ARGV: 1 the call's member, 2 'month', 'day' or '' (unknown), 3 marker TTL (s). Returns 1 or 0.
 */
export const REFUND_SCRIPT = `
if not redis.call('SET', KEYS[5], '1', 'NX', 'EX', ARGV[3]) then return 0 end
local inLog = redis.call('ZREM', KEYS[1], ARGV[1]) == 1
local inPlayground = redis.call('ZREM', KEYS[3], ARGV[1]) == 1
local counter
if ARGV[2] == 'month' or (ARGV[2] == '' and inLog) then counter = KEYS[2]
elseif ARGV[2] == 'day' or (ARGV[2] == '' and inPlayground) then counter = KEYS[4]
else return 0 end
local value = tonumber(redis.call('GET', counter) or '0')
if value > 0 then redis.call('DECR', counter) end
return 1
`;

/**
 * Creates an account's record unless the deadline (Redis time, Unix ms) has passed: a creation the
 * gateway already answered 503 for must not leave a record nobody was told of.
 * KEYS: 1 record. ARGV: 1 deadline, then field, value pairs. Returns 1, or 0 when expired.
 */
export const CREATE_SCRIPT = `
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[1]) then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
`;

/** Counts one event in a window's counter and sets its TTL in the same step. KEYS: 1 counter. ARGV: 1 TTL (s). */
export const COUNT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return value
`;
