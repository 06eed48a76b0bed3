import { LAPSE_REASONS } from '../../../domain/admission';
import type { ApiPlans } from '../../../domain/plans';
import { OLD_SECRET_PREFIX, encodeSubscription, subscriptionField } from '../record-codec';
import { MOVE_SECRETS } from './key-scripts';

// Names written into the script's source: plan files allow only these (plans-file.ts), and the
// built-in table keeps to them; anything else would be Lua code, not a name.
const LUA_SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function luaName(name: string): string {
  if (!LUA_SAFE_NAME.test(name)) throw new Error(`'${name}' cannot be written into the admission script: API and plan names are letters, digits, _ and -`);
  return `'${name}'`;
}

/**
 * The answers of the admission script, by their number in its reply (one integer, not a string to
 * copy and compare): `late` is a script that reached Redis after its deadline.
 */
export const ADMIT_REPLY_OUTCOMES = ['late', 'admitted', 'playground', 'unknown_key', 'revoked', 'expired', 'rolled', 'suspended', 'no_subscription', 'unknown_plan', 'playground_exhausted', 'rate_limited', 'quota_exceeded'] as const;

/**
 * The subscription status in the script's reply: none, active, any other (inactive), or, from
 * {@link FIRST_LAPSE} on, lapsed for the reason at that place in `LAPSE_REASONS` (billing stopped it).
 */
export const ADMIT_REPLY_STATUS = { none: 0, active: 1, inactive: 2 } as const;
export const FIRST_LAPSE = 3;

/** Besides an admission into an empty rolling second, those in the first second of each of these renew the per-second log's TTL (see the script). */
const RENEW_BUCKET_MS = 10_000;

/**
 * The admission script of one API: one EVALSHA per call. It mirrors `decideAdmission`
 * (domain/admission.ts) step for step; the shared store contract suite and a property test
 * (test/data/redis/admission-property.test.ts) hold the two to the same answers. The API's plan table is
 * written into the script's source (the table is fixed for a process's life), so a call sends six
 * arguments instead of eighteen, and the reply names the plan by its place in the table: with the
 * keys, the arguments were the largest part of the gateway's cost per admission.
 *
 * KEYS: 1 account (hash, with its keys' secrets), 2 the secrets' hash of an older layout (read only
 * when the account holds no such secret, and then moved into it), 3 second log (sorted set), 4 month counter, 5 day
 * counter, 6 playground log (sorted set of the day's playground calls, for refunds) — all tagged
 * with the account id, so one Cluster slot.
 * ARGV: 1 presented key hash, 2 now (integer ms), 3 unique log member, 4 month TTL (s), 5 day TTL (s),
 * 6 deadline (Unix ms).
 * Returns {outcome ({@link ADMIT_REPLY_OUTCOMES}, 0-based), plan (its 1-based place in the table, or
 * its name when the table has no such plan, '' for none), used, calls in the rolling second, status
 * ({@link ADMIT_REPLY_STATUS}), key id, and (admitted only) when the secret stops working (ms, 0 for
 * never)}.
 *
 * The secret's entry (`keyId|expiresMs|revokedMs|graceUntilMs`, the account's field named by the secret's hash)
 * says which key it opens and whether that key still may be used; the account holds it beside the
 * status and subscriptions shared by all its keys, so one HMGET reads all three. The counters are
 * the account's.
 *
 * The rate limit is a sliding log: the times of the calls admitted in the last second, so no
 * rolling one-second window ever holds more than the rate (a fixed window lets twice the rate
 * through across a boundary). Times are the gateways' clocks, and calls from several gateways can
 * reach Redis out of time order: a call must still see every entry of its own last second, so
 * entries are kept two seconds, not one, and the count is of the call's last second. It is exact,
 * unlike a sliding-window counter. What each command costs Redis counts (each is about a
 * microsecond or more), so an admission runs as few as its answer needs:
 * - the rolling second's oldest entry is not read: when a slot frees is told to clients in whole
 *   seconds, at least 1 (`Retry-After`, `RateLimit`), which for a one-second window is always 1,
 *   and the read was 11% of the script's instructions;
 * - the plan's limits are a chain of comparisons and the lapse reasons' table is built only on
 *   the paths that read it (a table in the script is made anew on every call);
 * - the log's idle TTL is renewed by an admission that finds the rolling second empty and by those
 *   in the first second of each ten: calls less than a second apart cannot step over that second,
 *   so a log in use was renewed within the last ten seconds of its calls' times, and every call
 *   sees it live for 50 s or more (gateways' clocks must agree within 48 s), where two would do;
 * - a month counter gets its TTL (to the month's end and a day) when it is made, by its first charge;
 * - the usual secret entry (`<key id>|0|0|0`: no expiry, not revoked, not rolled) and an active
 *   subscription to a plan of the table are recognised by plain comparison, not split by a pattern:
 *   a pattern's captures are new strings for Lua to make and collect, and the subscription's field
 *   is the script's own constant (Lua keeps one copy of each string);
 * - numbers cross into commands as strings: Redis formats a Lua number given to a command with
 *   `%.17g` (about 2,500 instructions in glibc), where `string.format('%d')` or the argument's own
 *   string costs a fraction; and a string becomes a number by `+ 0` (one `strtod`), not `tonumber`
 *   (two), or not at all where comparing with '0' answers (times are integer milliseconds).
 * Nothing is written unless the call is admitted: a 401, 402, 403 or 429 charges nothing. A script
 * that reaches Redis after its deadline (the gateway already answered 503: Redis was frozen, or
 * the network held the command) returns `late` and writes nothing either.
 */
export function admitScriptFor(api: string, apiPlans: ApiPlans, secondLogTtlSeconds: number): string {
  // A chain of comparisons, not a table: a table written in the script is built again on every call.
  const plans = Object.entries(apiPlans.plans).map(([name, p], i) => ({ name, limits: `${Math.trunc(p.monthly_quota)}, ${Math.trunc(p.rate_per_second)}, ${i + 1}` }));
  const chain = plans.map(({ name, limits }, i) => `${i ? 'elseif' : 'if'} plan == ${luaName(name)} then quota, rate, planRef = ${limits}`);
  const limitsOf = chain.length ? `${chain.join('\n')}\nelse planRef = plan end` : 'planRef = plan';
  // An active subscription's field compared whole: the string Redis replies with is the script's
  // own constant (Lua keeps one copy of each string), so nothing is split or made.
  const activeOf = plans.map(({ name, limits }) => `'${encodeSubscription({ status: 'active', plan: name })}' then status, quota, rate, planRef = 'active', ${limits}`);
  luaName(api);
  const code = (outcome: (typeof ADMIT_REPLY_OUTCOMES)[number]): number => ADMIT_REPLY_OUTCOMES.indexOf(outcome);
  const { active, inactive } = ADMIT_REPLY_STATUS;
  // A refusal before any plan is read: nothing counted, no subscription, and the key it names, if any.
  const refused = (outcome: (typeof ADMIT_REPLY_OUTCOMES)[number], keyId = "''"): string => `{${code(outcome)}, 0, 0, 0, 0, ${keyId}}`;
  const lapses = LAPSE_REASONS.map((reason, i) => `['lapsed:' .. ${luaName(reason)}] = ${FIRST_LAPSE + i}`).join(', ');
  return `
local time = redis.call('TIME')
if time[1] * 1000 + math.floor(time[2] / 1000) > ARGV[6] + 0 then return {${code('late')}} end
local rec = redis.call('HMGET', KEYS[1], ARGV[1], 'status', '${subscriptionField(api)}')
local entry = rec[1]
if not entry then
  -- A secret an older gateway wrote (${OLD_SECRET_PREFIX}<hash> in the account, or in the secrets' own hash): all the account's secrets move now.
  entry = redis.call('HGET', KEYS[1], '${OLD_SECRET_PREFIX}' .. ARGV[1]) or redis.call('HGET', KEYS[2], ARGV[1])
  if not entry then return ${refused('unknown_key')} end
  ${MOVE_SECRETS.trim()}
  moveSecrets(KEYS[1], KEYS[2])
end
local now = ARGV[2] + 0
local keyId, expires, grace
local bar = string.find(entry, '|', 1, true)
if bar and #entry == bar + 5 and string.find(entry, '|0|0|0', bar, true) == bar then
  -- Most keys never expire and are neither revoked nor rolled: their entry is read without a pattern.
  keyId, expires, grace = string.sub(entry, 1, bar - 1), 0, 0
else
  local revoked
  keyId, expires, revoked, grace = string.match(entry, '^([^|]*)|([^|]*)|([^|]*)|(.*)$')
  -- Only a hand-edited entry lacks its four fields: no key for it, rather than a script error.
  if not grace then return ${refused('unknown_key')} end
  if revoked ~= '0' then return ${refused('revoked', 'keyId')} end
  grace = grace ~= '0' and grace + 0 or 0
  expires = expires ~= '0' and expires + 0 or 0
  if grace > 0 and now >= grace then return ${refused('rolled', 'keyId')} end
  if expires > 0 and now >= expires then return ${refused('expired', 'keyId')} end
end
if not rec[2] then return ${refused('unknown_key')} end
if rec[2] == 'suspended' then return ${refused('suspended', 'keyId')} end
local status, plan, quota, rate, planRef = '', ''
${activeOf.length ? `if rec[3] == ${activeOf.join('\nelseif rec[3] == ')}\nelse` : 'do'}
  if rec[3] then status, plan = string.match(rec[3], '^([^|]*)|(.*)$') end
  ${limitsOf}
end
if status == 'active' then
  if not quota then return {${code('unknown_plan')}, planRef, 0, 0, ${active}, keyId} end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', now - 2000))
  local count = redis.call('ZCOUNT', KEYS[3], string.format('(%d', now - 1000), '+inf')
  local used = redis.call('GET', KEYS[4])
  used = used and used + 0 or 0
  if used >= quota then return {${code('quota_exceeded')}, planRef, used, count, ${active}, keyId} end
  if count >= rate then return {${code('rate_limited')}, planRef, used, count, ${active}, keyId} end
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
  if count == 0 or now % ${RENEW_BUCKET_MS} < 1000 then redis.call('EXPIRE', KEYS[3], '${Math.trunc(secondLogTtlSeconds)}') end
  used = redis.call('INCR', KEYS[4])
  if used == 1 then redis.call('EXPIRE', KEYS[4], ARGV[4]) end
  local limit = grace
  if expires > 0 and (limit == 0 or expires < limit) then limit = expires end
  return {${code('admitted')}, planRef, used, count + 1, ${active}, keyId, limit}
end
local LAPSES = {${lapses}}
local state = rec[3] and (LAPSES[status] or ${inactive}) or 0
-- A subscription billing stopped ('lapsed:<reason>') gets no playground: its owner is told to pay.
if ${Math.trunc(apiPlans.playground_per_day)} <= 0 or state >= ${FIRST_LAPSE} then return {${code('no_subscription')}, planRef, 0, 0, state, keyId} end
local day = tonumber(redis.call('GET', KEYS[5]) or '0')
if day >= ${Math.trunc(apiPlans.playground_per_day)} then return {${code('playground_exhausted')}, planRef, day, 0, state, keyId} end
day = redis.call('INCR', KEYS[5])
redis.call('EXPIRE', KEYS[5], ARGV[5])
redis.call('ZADD', KEYS[6], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[6], ARGV[5])
return {${code('playground')}, planRef, day, 0, state, keyId}
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
