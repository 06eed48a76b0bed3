/** Counts one event in a window's counter and sets its TTL in the same step. KEYS: 1 counter. ARGV: 1 TTL (s). */
export const COUNT_SCRIPT = `
local value = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return value
`;
