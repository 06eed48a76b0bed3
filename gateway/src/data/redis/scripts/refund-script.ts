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
