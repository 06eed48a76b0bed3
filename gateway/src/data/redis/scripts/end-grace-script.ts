import { MOVE_SECRETS } from './key-scripts';

/**
 * Ends a rolled key's grace now: the previous secret's entry is refused as rolled from this
 * moment (its grace end set to now unless already past), the current secret is untouched. A revoked
 * key, or one whose previous secret is gone or past its grace, is left as it is.
 * KEYS: 1 key record, 2 account, 3 the old secrets hash. ARGV: 1 now (ms). Returns 1, or 0 for an unknown key.
 */
export const END_GRACE_SCRIPT = `${MOVE_SECRETS}
local rec = redis.call('HMGET', KEYS[1], 'hash', 'prev_hash', 'revoked_at')
if not rec[1] then return 0 end
if rec[3] or not rec[2] or rec[2] == '' then return 1 end
moveSecrets(KEYS[2], KEYS[3])
local entry = redis.call('HGET', KEYS[2], rec[2])
if entry then
  local head, grace = string.match(entry, '^(.*)|([^|]*)$')
  local now = tonumber(ARGV[1])
  if head and (tonumber(grace) == 0 or tonumber(grace) > now) then redis.call('HSET', KEYS[2], rec[2], head .. '|' .. ARGV[1]) end
end
redis.call('HSET', KEYS[1], 'grace_until', '')
return 1
`;
