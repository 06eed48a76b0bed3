/**
 * Every Redis key name the gateway uses, built only here. Per-key data carries the key id as a
 * hash tag (`{key_…}`) so one admission script touches a single Cluster slot.
 */
export const redisKeys = {
  /** Hash: the key's record (hash, owner, created_at, revoked_at, sub:<api>). Durable: no TTL. */
  record: (keyId: string): string => `gw:{${keyId}}:key`,
  /** Sorted set: times of the calls admitted in the last second (sliding log). */
  secondLog: (keyId: string, api: string): string => `gw:{${keyId}}:sec:${api}`,
  /** Counter: calls charged to a plan in one UTC month (`2026-03`). */
  month: (keyId: string, api: string, monthId: string): string => `gw:{${keyId}}:month:${api}:${monthId}`,
  /** Sorted set: members of one UTC day's playground calls, so a refund undoes exactly one. */
  playgroundLog: (keyId: string, api: string, dayId: string): string => `gw:{${keyId}}:pg:${api}:${dayId}`,
  /** Marker: this call was refunded (so a second refund does nothing). */
  refunded: (keyId: string, member: string): string => `gw:{${keyId}}:rf:${member}`,
  /** Counter: playground calls in one UTC day (`2026-03-31`). */
  day: (keyId: string, api: string, dayId: string): string => `gw:{${keyId}}:day:${api}:${dayId}`,
  /** Set of every key id, for listing; durable. */
  keyIndex: (): string => 'gw:keys',
  /** Pub/sub channel: ids of revoked keys, so every gateway drops them from its fail-open cache. */
  revocations: (): string => 'gw:revocations',
  /** Counter: self-service sign-ups from one client address in one UTC hour. */
  signups: (ip: string, hourId: string): string => `gw:{signup:${ip}}:${hourId}`,
};

/** Seconds an idle second-log lives; entries older than a second are trimmed on every call anyway. */
export const SECOND_LOG_TTL_SECONDS = 60;

/** Seconds a refund marker lives: longer than any call can wait for its refund. */
export const REFUND_MARKER_TTL_SECONDS = 86_400;
