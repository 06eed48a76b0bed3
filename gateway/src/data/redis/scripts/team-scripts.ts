/**
 * The team store's scripts (redis-teams.ts). Each runs on one team's slot: its members hash
 * (`person id → role|joined ms|invited by`) and its invitations hash (`id → JSON`, with the code's
 * hash and `expires_ms` for the script), so the last-owner rule, the limits and a code's single use
 * are each one atomic step.
 */

/** Counts a members hash's owners (a record starts with its role). */
const OWNERS_LUA = `
local function owners(key)
  local n = 0
  for _, record in ipairs(redis.call('HVALS', key)) do
    if string.sub(record, 1, 6) == 'owner|' then n = n + 1 end
  end
  return n
end
`;

/**
 * KEYS: 1 members. ARGV: 1 person, 2 record, 3 most members (-1: no cap), 4 '1' to add only to an
 * empty team. Returns {'added'|'exists', record}, {'limit'} or {'skip'}.
 */
export const ADD_MEMBER_SCRIPT = `
local size = redis.call('HLEN', KEYS[1])
if ARGV[4] == '1' and size > 0 then return {'skip'} end
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then return {'exists', existing} end
local max = tonumber(ARGV[3])
if max >= 0 and size >= max then return {'limit'} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {'added', ARGV[2]}
`;

/** KEYS: 1 members. ARGV: 1 person, 2 new role. Returns the new record, 'last_owner', or false for no member. */
export const SET_ROLE_SCRIPT = `${OWNERS_LUA}
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
local role, rest = string.match(current, '^([^|]*)|(.*)$')
if role == 'owner' and ARGV[2] ~= 'owner' and owners(KEYS[1]) <= 1 then return 'last_owner' end
local updated = ARGV[2] .. '|' .. rest
redis.call('HSET', KEYS[1], ARGV[1], updated)
return updated
`;

/** KEYS: 1 members. ARGV: 1 person. Returns the removed record, 'last_owner', or false for no member. */
export const REMOVE_MEMBER_SCRIPT = `${OWNERS_LUA}
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
if string.sub(current, 1, 6) == 'owner|' and owners(KEYS[1]) <= 1 then return 'last_owner' end
redis.call('HDEL', KEYS[1], ARGV[1])
return current
`;

/**
 * KEYS: 1 invitations, 2 members. ARGV: 1 id, 2 JSON, 3 address, 4 now (ms), 5 ms kept after the
 * end, 6 most pending, 7 most members. Drops invitations past their keeping and the one to the
 * same address (the new one replaces it). Returns {'members'} or {'invitations'} (nothing
 * changed), else {'ok', code hashes of the dropped ones...}.
 */
export const CREATE_INVITATION_SCRIPT = `
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[7]) then return {'members'} end
local now, keep = tonumber(ARGV[4]), tonumber(ARGV[5])
local all = redis.call('HGETALL', KEYS[1])
local live, replaced, gone, dropped = 0, false, false, {}
for i = 1, #all, 2 do
  local invitation = cjson.decode(all[i + 1])
  if invitation.expires_ms + keep <= now then
    redis.call('HDEL', KEYS[1], all[i])
    table.insert(dropped, invitation.code_hash)
  elseif invitation.email == ARGV[3] then
    replaced, gone = all[i], invitation.code_hash
  elseif invitation.expires_ms > now then
    live = live + 1
  end
end
if live >= tonumber(ARGV[6]) then return {'invitations', unpack(dropped)} end
if replaced then
  redis.call('HDEL', KEYS[1], replaced)
  table.insert(dropped, gone)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {'ok', unpack(dropped)}
`;

/**
 * KEYS: 1 invitations, 2 members. ARGV: 1 invitation id, 2 code hash, 3 the person's address,
 * 4 person id, 5 now (ms), 6 ms kept after the end, 7 most members. Returns {outcome} or
 * {'ok', membership record, invitation JSON}; only 'ok' (and dropping a lapsed one) changes anything.
 */
export const ACCEPT_INVITATION_SCRIPT = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'none'} end
local invitation = cjson.decode(raw)
if invitation.code_hash ~= ARGV[2] then return {'none'} end
local now = tonumber(ARGV[5])
if invitation.expires_ms + tonumber(ARGV[6]) <= now then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return {'none'}
end
if invitation.expires_ms <= now then return {'expired'} end
if invitation.email ~= ARGV[3] then return {'other_address'} end
local record = redis.call('HGET', KEYS[2], ARGV[4])
if not record then
  if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[7]) then return {'members_limit'} end
  record = invitation.role .. '|' .. ARGV[5] .. '|' .. invitation.invited_by
  redis.call('HSET', KEYS[2], ARGV[4], record)
end
redis.call('HDEL', KEYS[1], ARGV[1])
return {'ok', record, raw}
`;

/** KEYS: 1 a string. ARGV: 1 the value it must hold to be deleted. */
export const DELETE_IF_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
