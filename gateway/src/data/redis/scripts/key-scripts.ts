import { OLD_SECRET_PREFIX } from '../record-codec';
import { deadlineCheckLua } from './deadline-lua';

/**
 * Scripts that change keys: each touches one account's slot and is atomic, so an admission never
 * sees a key half made, half rolled or half revoked. A secret's entry is a field of the account's
 * hash named by the secret's hash (64 hex digits) → `keyId|expiresMs|revokedMs|graceUntilMs` (0 for
 * none), as the admission script reads it. Each first moves the secrets older gateways wrote
 * elsewhere (see {@link MOVE_SECRETS}), so it never acts on half of an account's secrets.
 */

/**
 * Lua: `moveSecrets(account, old)` moves the secrets older gateways wrote into the account's hash
 * under their bare hash, once: those of 2026-11 as fields `s:<hash>` of the account (a name of 66
 * bytes, which made every account with a key a hashtable instead of a listpack), and those of
 * before 2026-11 in a hash of their own (deleted once moved). An entry the account already holds
 * under the new name wins, then the `s:` one. Nothing is moved into an account that does not exist
 * (it would make a record of secrets only).
 */
export const MOVE_SECRETS = `
local function moveSecrets(account, old)
  if redis.call('EXISTS', account) == 0 then return end
  local fields = redis.call('HGETALL', account)
  for i = 1, #fields, 2 do
    local name = fields[i]
    if #name == ${OLD_SECRET_PREFIX.length + 64} and string.sub(name, 1, ${OLD_SECRET_PREFIX.length}) == '${OLD_SECRET_PREFIX}' then
      redis.call('HSETNX', account, string.sub(name, ${OLD_SECRET_PREFIX.length + 1}), fields[i + 1])
      redis.call('HDEL', account, name)
    end
  end
  if redis.call('EXISTS', old) == 0 then return end
  local moved = redis.call('HGETALL', old)
  for i = 1, #moved, 2 do redis.call('HSETNX', account, moved[i], moved[i + 1]) end
  redis.call('DEL', old)
end
`;

const DEADLINE_PASSED = deadlineCheckLua({ deadline: 'ARGV[1]', onLate: '0' });

/**
 * Creates a key in an existing account unless the deadline has passed (the gateway answered 503:
 * nobody got the secret) or the account holds the most live keys allowed. Live keys are counted
 * from the account's secrets (a rolled key's two secrets are one key), in the same step as the creation.
 * KEYS: 1 account, 2 key record, 3 the old secrets hash, 4 the account's key index.
 * ARGV: 1 deadline (Redis time, Unix ms), 2 secret hash, 3 its entry, 4 index member, 5 the most
 * live keys (0: no cap), 6 now (ms, what expiry is compared with), then field, value pairs of the
 * record. Returns 1, 0 when late, -1 when the account does not exist, -2 at the cap.
 */
export const CREATE_KEY_SCRIPT = `${DEADLINE_PASSED}${MOVE_SECRETS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
moveSecrets(KEYS[1], KEYS[3])
local most = tonumber(ARGV[5])
if most > 0 then
  local now, live, seen, fields = tonumber(ARGV[6]), 0, {}, redis.call('HGETALL', KEYS[1])
  for i = 1, #fields, 2 do
    local id, expires, revoked = string.match(fields[i + 1], '^([^|]*)|(%d+)|(%d+)|')
    if id and #fields[i] == 64 and string.find(fields[i], '^%x+$') and not seen[id] and revoked == '0' and (expires == '0' or tonumber(expires) > now) then
      seen[id] = true
      live = live + 1
    end
  end
  if live >= most then return -2 end
end
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[4], 0, ARGV[4])
return 1
`;

/**
 * Gives a key a new secret unless the deadline has passed. The previous secret keeps working until
 * the grace time (with no grace, that is now: it is refused at once, as a rolled secret rather than
 * an unknown one); an older one still in its grace is forgotten.
 * KEYS: 1 key record, 2 account, 3 the old secrets hash. ARGV: 1 deadline, 2 new hash, 3 grace until (ms), 4 rolled_at,
 * 5 grace_until ('' for none), 6 prefix, 7 last4, 8 key id, 9 the hash the roll replaces (read
 * before, so a roll that was undone, or raced, never replaces a secret nobody meant to).
 * Returns 1, 0 when late, -1 for an unknown key (or one whose account is gone), -2 for a revoked one, -3 when the hash changed.
 */
export const ROLL_SCRIPT = `${DEADLINE_PASSED}${MOVE_SECRETS}
local rec = redis.call('HMGET', KEYS[1], 'hash', 'prev_hash', 'revoked_at', 'expires_ms')
if not rec[1] or redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if rec[3] then return -2 end
if rec[1] ~= ARGV[9] then return -3 end
moveSecrets(KEYS[2], KEYS[3])
local expires = rec[4] or '0'
if rec[2] and rec[2] ~= '' then redis.call('HDEL', KEYS[2], rec[2]) end
redis.call('HSET', KEYS[2], rec[1], ARGV[8] .. '|' .. expires .. '|0|' .. ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[8] .. '|' .. expires .. '|0|0')
redis.call('HSET', KEYS[1], 'hash', ARGV[2], 'prev_hash', rec[1], 'rolled_at', ARGV[4], 'grace_until', ARGV[5], 'prefix', ARGV[6], 'last4', ARGV[7])
return 1
`;

/**
 * Undoes a roll the client was told failed (it reached Redis late): puts back the secrets and
 * fields read before it, unless the key was rolled again or revoked since.
 * KEYS: 1 key record, 2 account, 3 the old secrets hash. ARGV: 1 the roll's new hash, 2 the old hash, 3 its entry,
 * 4 the previous hash before ('' for none), 5 its entry, 6 rolled_at, 7 grace_until, 8 prefix,
 * 9 last4 as they were. Returns 1 when undone, else 0.
 */
export const UNROLL_SCRIPT = `${MOVE_SECRETS}
local rec = redis.call('HMGET', KEYS[1], 'hash', 'revoked_at')
if rec[1] ~= ARGV[1] or rec[2] then return 0 end
moveSecrets(KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[2], ARGV[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], ARGV[3]) end
if ARGV[4] ~= '' and ARGV[5] ~= '' then redis.call('HSET', KEYS[2], ARGV[4], ARGV[5]) end
redis.call('HSET', KEYS[1], 'hash', ARGV[2], 'prev_hash', ARGV[4], 'rolled_at', ARGV[6], 'grace_until', ARGV[7], 'prefix', ARGV[8], 'last4', ARGV[9])
return 1
`;

/**
 * Revokes a key and every secret of it; a second revocation keeps the first time.
 * KEYS: 1 key record, 2 account, 3 the old secrets hash. ARGV: 1 now (ms), 2 revoked_at, 3 key id.
 * Returns 1, or 0 for an unknown key.
 */
export const REVOKE_SCRIPT = `${MOVE_SECRETS}
local rec = redis.call('HMGET', KEYS[1], 'hash', 'prev_hash', 'revoked_at', 'expires_ms')
if not rec[1] then return 0 end
if rec[3] then return 1 end
moveSecrets(KEYS[2], KEYS[3])
local entry = ARGV[3] .. '|' .. (rec[4] or '0') .. '|' .. ARGV[1] .. '|0'
redis.call('HSET', KEYS[1], 'revoked_at', ARGV[2])
redis.call('HSET', KEYS[2], rec[1], entry)
if rec[2] and rec[2] ~= '' then redis.call('HSET', KEYS[2], rec[2], entry) end
return 1
`;

/**
 * Sets (or, with an empty value, deletes) fields of a hash that exists, together; never creates one.
 * KEYS: 1 hash. ARGV: field, value pairs. Returns 1, or 0 when the hash does not exist.
 */
export const SET_IF_EXISTS_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 1
`;

/**
 * Adds a history batch to the server's totals once: a marker per batch id makes the same batch
 * sent again a no-op. Every key is the server's: one slot, the {stats} hash tag.
 * KEYS: 1 the batch marker, then the totals' hashes and sorted sets. ARGV: 1 marker TTL (s), then
 * per count: 'h' (hash) or 'z' (sorted set), the index of its key (1-based), the field (or
 * member), the count, and the key's TTL (s).
 * Returns 1 when added, 0 when the batch was added before.
 */
export const STATS_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 2, #ARGV, 5 do
  local key = KEYS[tonumber(ARGV[i + 1])]
  if ARGV[i] == 'h' then redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3]) else redis.call('ZINCRBY', key, ARGV[i + 3], ARGV[i + 2]) end
  redis.call('EXPIRE', key, ARGV[i + 4])
end
return 1
`;

/**
 * Writes a key made before accounts as an account of one key, once: if the account exists the
 * migration already ran (here or on another gateway) and nothing is written. Counters are set only
 * where absent, with their TTL.
 * KEYS: 1 account, 2 key record, 3 key index, then one counter per ARGV pair.
 * ARGV: 1 account field count n, 2 key field count m, 3 secret hash, 4 its entry, 5 index member,
 * then n account field/value pairs, m key field/value pairs, then per counter: value, TTL (s).
 * Returns 1 when it migrated, 0 when already done.
 */
export const MIGRATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n, m = tonumber(ARGV[1]), tonumber(ARGV[2])
local i = 6
for _ = 1, n do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]); i = i + 2 end
for _ = 1, m do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]); i = i + 2 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[3], 0, ARGV[5])
for k = 4, #KEYS do
  if tonumber(ARGV[i]) > 0 then redis.call('SET', KEYS[k], ARGV[i], 'NX', 'EX', ARGV[i + 1]) end
  i = i + 2
end
return 1
`;

/**
 * Adds a batch of history counts and keys' last use for one or more accounts, each account's
 * counts once: a marker per account and batch id makes the same batch sent again (after a
 * timeout, when it may have run) a no-op for the counts. Several accounts go in one call where
 * one Redis holds them all (a Cluster gets one call per account: one slot each).
 * KEYS, per account: its batch marker, its days' history hashes, then the hashes of its keys used.
 * ARGV: 1 history TTL (s), 2 marker TTL (s), then per account: the number of day hashes, of counts
 * and of keys used; per count the index of its day's hash among the account's (1-based), the
 * field and the count; per key used, its last use (written only where the key still exists).
 * Returns how many accounts' counts were added (those already added are not).
 */
export const HISTORY_SCRIPT = `
local k, a, added = 1, 3, 0
while a <= #ARGV do
  local days, counts, used = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  a = a + 3
  local fresh = redis.call('SET', KEYS[k], '1', 'NX', 'EX', ARGV[2])
  if fresh then added = added + 1 end
  for i = 1, counts do
    if fresh then
      local name = KEYS[k + tonumber(ARGV[a])]
      redis.call('HINCRBY', name, ARGV[a + 1], ARGV[a + 2])
      redis.call('EXPIRE', name, ARGV[1])
    end
    a = a + 3
  end
  for i = 1, used do
    local name = KEYS[k + days + i]
    if redis.call('EXISTS', name) == 1 then redis.call('HSET', name, 'last_used_at', ARGV[a]) end
    a = a + 1
  end
  k = k + 1 + days + used
end
return added
`;

/**
 * Erases everything of an account in its slot in one step: its record (with its keys' secrets),
 * its key index, every key listed there at this moment and the other keys given (billing, old
 * secrets, history days). A key created before this step is in the index and goes with it; one
 * created after it finds no account and is refused (CREATE_KEY_SCRIPT): none outlives the account.
 * KEYS: 1 account, 2 key index, then the others to delete. ARGV: 1 the key record's name up to the
 * key id (`gw:{acc_…}:key:`). Returns the erased keys' ids and prefixes, in pairs.
 */
export const DELETE_ACCOUNT_SCRIPT = `
local erased = {}
local names = {}
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local id = string.sub(member, string.find(member, ':', 1, true) + 1)
  local name = ARGV[1] .. id
  erased[#erased + 1] = id
  erased[#erased + 1] = redis.call('HGET', name, 'prefix') or ''
  names[#names + 1] = name
end
for _, name in ipairs(names) do redis.call('DEL', name) end
for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
return erased
`;
