import { AUDIT_RETENTION_DAYS } from '../audit-log';
import type { AuditEntry, AuditLog } from '../audit-log';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import type { StoreGuard } from './store-guard';

/**
 * Adds an entry to a stream, trimming entries past the retention by Redis's own clock (stream ids
 * are Redis times; the gateway's clock may differ). KEYS: 1 stream. ARGV: 1 retention (ms), then
 * field, value pairs. Returns the entry's stream id.
 */
const APPEND_SCRIPT = `
local t = redis.call('TIME')
local cutoff = string.format('%.0f', tonumber(t[1]) * 1000 - tonumber(ARGV[1]))
local args = {'XADD', KEYS[1], 'MINID', '~', cutoff, '*'}
for i = 2, #ARGV do args[#args + 1] = ARGV[i] end
return redis.call(unpack(args))
`;

// What a stream id looks like; any other cursor starts from the first page (never a Redis error).
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;
const RETENTION_MS = AUDIT_RETENTION_DAYS * 86_400_000;

type StreamEntry = [id: string, fields: string[]];

/** A stream entry's fields as an object. */
function fieldsOf(fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]!] = fields[i + 1]!;
  return out;
}

/**
 * The audit log in Redis: every entry in the server's stream `gw:audit` (its id is the entry's),
 * and a copy in its account's stream (in the account's slot, carrying that id), so an account's
 * entries are one range read. Both are trimmed past the retention as entries are added. The two
 * adds are two commands (on a Cluster, two slots): a store failing between them leaves the
 * account's copy out, never the server's.
 */
export function createRedisAuditLog(redis: RedisClient, deps: { guard: StoreGuard; clock: () => number }): AuditLog {
  const { guard, clock } = deps;
  redis.defineCommand('tollgateAuditAppend', { numberOfKeys: 1, lua: APPEND_SCRIPT });
  const append = (redis as unknown as { tollgateAuditAppend(key: string, ...args: (string | number)[]): Promise<string> }).tollgateAuditAppend.bind(redis);
  return {
    append: (input) =>
      guard.run('audit_append', async () => {
        const entry = { at: new Date(clock()).toISOString(), ...structuredClone(input) };
        const json = JSON.stringify(entry);
        const id = await append(redisKeys.audit(), RETENTION_MS, 'entry', json);
        if (input.account_id !== null) await append(redisKeys.accountAudit(input.account_id), RETENTION_MS, 'id', id, 'entry', json);
        return { id, ...entry };
      }),
    list: ({ accountId, cursor, limit, oldestFirst = false }) =>
      guard.run('audit_list', async () => {
        const stream = accountId === undefined ? redisKeys.audit() : redisKeys.accountAudit(accountId);
        const from = cursor !== undefined && STREAM_ID.test(cursor) ? `(${cursor}` : undefined;
        const rows = (oldestFirst ? await redis.xrange(stream, from ?? '-', '+', 'COUNT', limit + 1) : await redis.xrevrange(stream, from ?? '+', '-', 'COUNT', limit + 1)) as StreamEntry[];
        const shown = rows.slice(0, limit);
        const items = shown.map(([streamId, fields]) => {
          const f = fieldsOf(fields);
          return { id: f.id ?? streamId, ...(JSON.parse(f.entry ?? '{}') as Omit<AuditEntry, 'id'>) };
        });
        return { items, next_cursor: rows.length > limit ? shown.at(-1)![0] : null };
      }),
  };
}
