import { deadlineCheckLua } from './deadline-lua';

/**
 * Creates an account's record unless the deadline (Redis time, Unix ms) has passed: a creation the
 * gateway already answered 503 for must not leave a record nobody was told of.
 * KEYS: 1 record. ARGV: 1 deadline, then field, value pairs. Returns 1, or 0 when expired.
 */
export const CREATE_SCRIPT = `${deadlineCheckLua({ deadline: 'ARGV[1]', onLate: '0' })}
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
`;
