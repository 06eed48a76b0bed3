import { LAPSE_REASONS } from '../../../domain/admission';
import type { ApiPlans } from '../../../domain/plans';
import { OLD_SECRET_PREFIX, encodeSubscription, subscriptionField } from '../record-codec';
import { deadlineCheckLua } from './deadline-lua';
import { MOVE_SECRETS } from './key-scripts';
import { MONTH_TTL_LUA } from './month-ttl-lua';

// Names written into the script's source: plan files allow only these (plans-file.ts), and the
// built-in table keeps to them; anything else would be Lua code, not a name.
const LUA_SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function luaName(name: string): string {
  if (!LUA_SAFE_NAME.test(name)) throw new Error(`'${name}' cannot be written into the admission script: API and plan names are letters, digits, _ and -`);
  return `'${name}'`;
}

/**
 * The answers of the admission scripts, by their number in their reply (one integer, not a string
 * to copy and compare): `late` is a script that reached Redis after its deadline; `needs_full` is
 * the usual script saying the call is one only the full script answers (it wrote nothing); `failed`
 * is a call of a batch whose script raised an error (a key of the wrong type, say): that call alone.
 */
export const ADMIT_REPLY_OUTCOMES = ['late', 'admitted', 'playground', 'unknown_key', 'revoked', 'expired', 'rolled', 'suspended', 'no_subscription', 'unknown_plan', 'playground_exhausted', 'rate_limited', 'quota_exceeded', 'needs_full', 'failed'] as const;

/**
 * The subscription status in the script's reply: none, active, any other (inactive), or, from
 * {@link FIRST_LAPSE} on, lapsed for the reason at that place in `LAPSE_REASONS` (billing stopped it).
 */
export const ADMIT_REPLY_STATUS = { none: 0, active: 1, inactive: 2 } as const;
export const FIRST_LAPSE = 3;

/** Besides an admission into an empty rolling second, those in the first second of each of these renew the per-second log's TTL (see the script). */
const RENEW_BUCKET_MS = 10_000;

/**
 * Where a script finds its log, month counter and deadline: the full script has six keys and five
 * arguments, the usual one three and four (see {@link usualAdmitBatchScriptFor}).
 */
interface ScriptShape {
  full: boolean;
  log: string;
  month: string;
  deadline: string;
  /** A Lua expression for Redis's `TIME`, when the script already read it (a batch reads it once). */
  time?: string;
}
const FULL_SHAPE: ScriptShape = { full: true, log: 'KEYS[3]', month: 'KEYS[4]', deadline: 'ARGV[5]' };
const USUAL_SHAPE: ScriptShape = { full: false, log: 'KEYS[2]', month: 'KEYS[3]', deadline: 'ARGV[4]' };

/**
 * The usual admission script of one API, for several calls in one EVALSHA (admit-batches.ts; a
 * call alone is a batch of one). Each call runs the full script ({@link admitScriptFor}) without
 * what a call with a subscription never needs, so that it sends three keys and four arguments
 * instead of six and five (each one costs Redis about a thousand instructions a call: 5% of the
 * script). A call it cannot answer alone it answers `needs_full`, having written nothing, and the
 * gateway sends the full script: a secret it does not find in the account (unknown, or written by
 * an older gateway and not moved yet), and a call with no active subscription (the playground, or
 * a 402). Those take two round trips; an active subscription's calls, admitted or refused, one.
 *
 * What Redis and the client spend on a command, rather than on its work, is paid once for the
 * calls of one event-loop turn. Each call is run alone, in order, against Redis's `TIME` read once;
 * each writes only for itself, so a batch is its calls one after the other, as separate commands
 * would be. A call that raises an error is answered `failed` (what it wrote before the error
 * stays: the gateway refunds it) and the others go on.
 *
 * KEYS, for each call in turn: 1 account, 2 second log, 3 month counter. ARGV, for each call in
 * turn: 1 presented key hash, 2 now (integer ms), 3 unique log member, 4 deadline (Unix ms).
 * Returns one reply per call, in the same order: as the full script's, or `needs_full`.
 */
export function usualAdmitBatchScriptFor(api: string, apiPlans: ApiPlans, secondLogTtlSeconds: number): string {
  return `
local batchTime = redis.call('TIME')
local function admit(KEYS, ARGV)
${admitLua(api, apiPlans, secondLogTtlSeconds, { ...USUAL_SHAPE, time: 'batchTime' }).trim()}
end
local replies = {}
for i = 0, #KEYS / 3 - 1 do
  local k, a = 3 * i, 4 * i
  -- One call's error (a key of the wrong type, a hand-edited entry) is that call's alone.
  local ok, reply = pcall(admit, {KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]}, {ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]})
  replies[i + 1] = ok and reply or {${ADMIT_REPLY_OUTCOMES.indexOf('failed')}}
end
return replies
`;
}

/**
 * The full admission script of one API. It mirrors `decideAdmission`
 * (domain/admission.ts) step for step; the shared store contract suite and a property test
 * (test/data/redis/admission-property.test.ts) hold the two to the same answers. The API's plan table is
 * written into the script's source (the table is fixed for a process's life), so a call sends six
 * arguments instead of eighteen, and the reply names the plan by its place in the table: with the
 * keys, the arguments were the largest part of the gateway's cost per admission. A call with an
 * active subscription is sent the usual script first ({@link usualAdmitBatchScriptFor}).
 *
 * KEYS: 1 account (hash, with its keys' secrets), 2 the secrets' hash of an older layout (read only
 * when the account holds no such secret, and then moved into it), 3 second log (sorted set), 4 month counter, 5 day
 * counter, 6 playground log (sorted set of the day's playground calls, for refunds) — all tagged
 * with the account id, so one Cluster slot.
 * ARGV: 1 presented key hash, 2 now (integer ms), 3 unique log member, 4 day TTL (s), 5 deadline
 * (Unix ms).
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
 * - a month counter gets its TTL (to the month's end and a day) when it is made, by its first charge,
 *   worked out by the script (month-ttl-lua.ts) rather than sent with every call;
 * - the usual secret entry (`<key id>|0|0|0`: no expiry, not revoked, not rolled) and an active
 *   subscription to a plan of the table are recognised by plain comparison, not split by a pattern:
 *   a pattern's captures are new strings for Lua to make and collect, and the subscription's field
 *   is the script's own constant (Lua keeps one copy of each string);
 * - numbers cross into commands as strings: Redis formats a Lua number given to a command with
 *   `%.17g` (about 2,500 instructions in glibc), where `string.format('%d')` or the argument's own
 *   string costs a fraction; and a string becomes a number by `+ 0` (one `strtod`), not `tonumber`
 *   (two), or not at all where comparing with '0' answers (times are integer milliseconds), or
 *   where comparing text does: the deadline with `TIME` (deadline-lua.ts).
 * Nothing is written unless the call is admitted: a 401, 402, 403 or 429 charges nothing. A script
 * that reaches Redis after its deadline (the gateway already answered 503: Redis was frozen, or
 * the network held the command) returns `late` and writes nothing either.
 */
export function admitScriptFor(api: string, apiPlans: ApiPlans, secondLogTtlSeconds: number): string {
  return admitLua(api, apiPlans, secondLogTtlSeconds, FULL_SHAPE);
}

function admitLua(api: string, apiPlans: ApiPlans, secondLogTtlSeconds: number, shape: ScriptShape): string {
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
  const findOlderSecret = `-- A secret an older gateway wrote (${OLD_SECRET_PREFIX}<hash> in the account, or in the secrets' own hash): all the account's secrets move now.
  entry = redis.call('HGET', KEYS[1], '${OLD_SECRET_PREFIX}' .. ARGV[1]) or redis.call('HGET', KEYS[2], ARGV[1])
  if not entry then return ${refused('unknown_key')} end
  ${MOVE_SECRETS.trim()}
  moveSecrets(KEYS[1], KEYS[2])`;
  const lapses = LAPSE_REASONS.map((reason, i) => `['lapsed:' .. ${luaName(reason)}] = ${FIRST_LAPSE + i}`).join(', ');
  // No active subscription: a 402, or the playground's calls of the day.
  const withoutSubscription = `local LAPSES = {${lapses}}
local state = rec[3] and (LAPSES[status] or ${inactive}) or 0
-- A subscription billing stopped ('lapsed:<reason>') gets no playground: its owner is told to pay.
if ${Math.trunc(apiPlans.playground_per_day)} <= 0 or state >= ${FIRST_LAPSE} then return {${code('no_subscription')}, planRef, 0, 0, state, keyId} end
local day = tonumber(redis.call('GET', KEYS[5]) or '0')
if day >= ${Math.trunc(apiPlans.playground_per_day)} then return {${code('playground_exhausted')}, planRef, day, 0, state, keyId} end
day = redis.call('INCR', KEYS[5])
redis.call('EXPIRE', KEYS[5], ARGV[4])
redis.call('ZADD', KEYS[6], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[6], ARGV[4])
return {${code('playground')}, planRef, day, 0, state, keyId}`;
  return `
${deadlineCheckLua({ deadline: shape.deadline, onLate: `{${code('late')}}`, ...(shape.time ? { time: shape.time } : {}) }).trim()}
local rec = redis.call('HMGET', KEYS[1], ARGV[1], 'status', '${subscriptionField(api)}')
local entry = rec[1]
if not entry then
  ${shape.full ? findOlderSecret : `return {${code('needs_full')}}`}
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
  redis.call('ZREMRANGEBYSCORE', ${shape.log}, '-inf', string.format('%d', now - 2000))
  local count = redis.call('ZCOUNT', ${shape.log}, string.format('(%d', now - 1000), '+inf')
  local used = redis.call('GET', ${shape.month})
  used = used and used + 0 or 0
  if used >= quota then return {${code('quota_exceeded')}, planRef, used, count, ${active}, keyId} end
  if count >= rate then return {${code('rate_limited')}, planRef, used, count, ${active}, keyId} end
  redis.call('ZADD', ${shape.log}, ARGV[2], ARGV[3])
  if count == 0 or now % ${RENEW_BUCKET_MS} < 1000 then redis.call('EXPIRE', ${shape.log}, '${Math.trunc(secondLogTtlSeconds)}') end
  used = redis.call('INCR', ${shape.month})
  if used == 1 then
    ${MONTH_TTL_LUA.trim()}
    redis.call('EXPIRE', ${shape.month}, string.format('%d', monthTtl(now)))
  end
  local limit = grace
  if expires > 0 and (limit == 0 or expires < limit) then limit = expires end
  return {${code('admitted')}, planRef, used, count + 1, ${active}, keyId, limit}
end
${shape.full ? withoutSubscription : `return {${code('needs_full')}}`}
`;
}
