/**
 * Appends usage events to one stream shard: one entry per event, `XADD <key> MAXLEN ~ <n> * event
 * <json>`, so consumers read exactly what one XADD each would have written; one script call
 * carries many events, where a pipeline of XADDs cost the gateway a command (its object, promise,
 * encoding and reply) per event.
 * KEYS: 1 the shard. ARGV: 1 the approximate MAXLEN, 2… the events' JSON. Returns how many were added.
 */
export const USAGE_APPEND_SCRIPT = `
local key, maxlen = KEYS[1], ARGV[1]
for i = 2, #ARGV do
  redis.call('XADD', key, 'MAXLEN', '~', maxlen, '*', 'event', ARGV[i])
end
return #ARGV - 1
`;
