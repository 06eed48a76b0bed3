/**
 * Every Redis key name the gateway uses, built only here. An account's data carries the account id
 * as a hash tag (`{acc_…}`): its record, its keys, their secrets and its counters share one Cluster
 * slot, so one admission script reads and charges them together. Keys are found from a secret
 * without a lookup because the secret carries its account id.
 */
export const redisKeys = {
  /**
   * Hash: the account (email, name, status, created_at, sub:<api> = status|plan) and its keys'
   * secrets (the SHA-256 of the secret, 64 hex digits → `keyId|expiresMs|revokedMs|graceUntilMs`;
   * `s:<SHA-256>` as gateways of 2026-11 wrote it, moved by the scripts), so admission reads the
   * secret, the status and the subscription in one HMGET. Durable.
   */
  account: (accountId: string): string => `gw:{${accountId}}:acct`,
  /** Hash: one key's record (name, created_at, prefix, last4, hash, prev_hash, …). Durable. */
  key: (accountId: string, keyId: string): string => `gw:{${accountId}}:key:${keyId}`,
  /** Sorted set (all scores 0): `<created ms, 13 digits>:<keyId>`, the account's keys in creation order. */
  keys: (accountId: string): string => `gw:{${accountId}}:keys`,
  /** Sorted set: times of the calls admitted in the last two seconds (sliding log). */
  secondLog: (accountId: string, api: string): string => `gw:{${accountId}}:sec:${api}`,
  /** Counter: calls charged to a plan in one UTC month (`2026-03`). */
  month: (accountId: string, api: string, monthId: string): string => `gw:{${accountId}}:month:${api}:${monthId}`,
  /** Sorted set: members of one UTC day's playground calls, so a refund undoes exactly one. */
  playgroundLog: (accountId: string, api: string, dayId: string): string => `gw:{${accountId}}:pg:${api}:${dayId}`,
  /** Marker: this call was refunded (so a second refund does nothing). */
  refunded: (accountId: string, member: string): string => `gw:{${accountId}}:rf:${member}`,
  /** Counter: playground calls in one UTC day (`2026-03-31`). */
  day: (accountId: string, api: string, dayId: string): string => `gw:{${accountId}}:day:${api}:${dayId}`,
  /** Hash: one UTC day's calls by `<api>:<outcome>`, kept 90 days. */
  history: (accountId: string, dayId: string): string => `gw:{${accountId}}:hist:${dayId}`,
  /** Marker: this history batch was added (so a batch sent again is not counted twice). */
  historyBatch: (accountId: string, batchId: string): string => `gw:{${accountId}}:hb:${batchId}`,
  /** Hash: the account's billing (`customer:<CURRENCY>` → provider customer id, `api:<api>` → JSON record, `checkout:<api>` → the last checkout session started). Durable. */
  billing: (accountId: string): string => `gw:{${accountId}}:billing`,
  /** String: the account id a provider's customer belongs to; durable. */
  billingCustomer: (customerId: string): string => `gw:{billing-customer:${customerId}}`,
  /** Sorted set (all scores 0): ids of accounts with billing; durable. */
  billingIndex: (): string => 'gw:billing-accounts',
  /** String: a webhook event being handled (`processing`, a lease) or handled (`done`, kept 30 days). */
  billingEvent: (eventId: string): string => `gw:{billing-event:${eventId}}`,
  /** Hash: the account's events: `prefs` → its preferences (JSON), `endpoint:<id>` → a webhook endpoint (JSON). Durable. */
  events: (accountId: string): string => `gw:{${accountId}}:events`,
  /** String (JSON): one webhook delivery; kept 30 days from its creation. */
  delivery: (accountId: string, deliveryId: string): string => `gw:{${accountId}}:dlv:${deliveryId}`,
  /** Sorted set: every delivery of the account by creation time (ms), those older than 30 days dropped: what erasing the account deletes. */
  deliveryIndex: (accountId: string): string => `gw:{${accountId}}:dlv-index`,
  /** Sorted set: the account's pending deliveries by creation time (ms), counted against its cap; lives as long as its newest. */
  pendingDeliveries: (accountId: string): string => `gw:{${accountId}}:dlv-pending`,
  /** Sorted set: an endpoint's deliveries by creation time (ms), the newest 100 kept; lives as long as its newest delivery. */
  deliveries: (accountId: string, endpointId: string): string => `gw:{${accountId}}:dlvs:${endpointId}`,
  /** Marker: something told once (`quota:<api>:<month>:<threshold>`, `expiring:<key>:<days>`, …); lapses when it may be told again. */
  eventClaim: (accountId: string, name: string): string => `gw:{${accountId}}:claim:${name}`,
  /** Sorted set: every gateway's webhook queue, `<accountId>:<deliveryId>` scored by when it is due (a lease's end while attempted); durable. */
  deliveryQueue: (): string => 'gw:webhook-queue',
  /** Hash: account id → its own quota thresholds (JSON), plus `_version`, bumped on every change; durable. */
  eventThresholds: (): string => 'gw:event-thresholds',
  /** Sorted set (all scores 0): ids of accounts with event preferences or endpoints; durable. */
  eventAccounts: (): string => 'gw:event-accounts',
  /** Stream: usage events (CloudEvents JSON in field `event`), one of USAGE_STREAM_SHARDS, trimmed to about USAGE_STREAM_MAXLEN entries. */
  usageStream: (shard: number): string => `gw:{usage:${shard}}:events`,
  /** Marker outside any account: a job run claimed by one gateway (`reset:<month>`, `sweep:<hour>`). */
  jobClaim: (name: string): string => `gw:{job:${name}}`,
  /** Sorted set (all scores 0): `<created ms, 13 digits>:<accountId>`, every account; durable. */
  accountIndex: (): string => 'gw:accounts',
  /** String: the account id holding an email; durable. */
  email: (email: string): string => `gw:email:${email}`,
  /** Pub/sub channel: ids of revoked keys and suspended accounts, so every gateway drops them from its fail-open cache. */
  revocations: (): string => 'gw:revocations',
  /** Set: the ids of the keys whose record has this prefix (operators find keys by it); durable. */
  keyPrefix: (prefix: string): string => `gw:keyprefix:${prefix}`,
  /** String: set once every key made before this index existed is in it. */
  keyPrefixIndexed: (): string => 'gw:keyprefix-indexed',
  /** String: set once every account made before teams is a team of one (team-adoption.ts). */
  teamsAdopted: (): string => 'gw:teams-adopted',
  /** Set once every key stored before issue 40 is indexed under its shown start (key-indexes.ts). */
  keyStartIndexed: (): string => 'gw:keystart-indexed',
  /** Sorted set: key id → its expiry (Unix ms), for every key made with one; durable (the expiry notices read a week of it). */
  keyExpiries: (): string => 'gw:keyexpiry',
  /** String: set once every key made before the expiry index existed is in it. */
  keyExpiryIndexed: (): string => 'gw:keyexpiry-indexed',
  /** Hash: the whole server's calls of one UTC day by `<api>:<outcome>` (the sum of the accounts' history). */
  serverDay: (dayId: string): string => `gw:{stats}:day:${dayId}`,
  /** Sorted set: account id → calls counted in one UTC month, for the operators' top accounts. */
  topAccounts: (monthId: string): string => `gw:{stats}:top:${monthId}`,
  /** Marker: this history batch was added to the server's totals (so a batch sent again is not counted twice). */
  statsBatch: (batchId: string): string => `gw:{stats}:hb:${batchId}`,
  /** Stream: every audit entry, oldest first; trimmed past the retention. */
  audit: (): string => 'gw:audit',
  /** Stream: one account's audit entries (each carrying its id in the server's stream). */
  accountAudit: (accountId: string): string => `gw:{${accountId}}:audit`,
  /** Counter: one of an account's limited actions (`webhook_send`, `key_create`, `key_revoke`) in one window (an hour's or a day's id). */
  accountAction: (accountId: string, action: string, windowId: string): string => `gw:{${accountId}}:act:${action}:${windowId}`,
  /** Counter: self-service sign-ups from one client address in one UTC hour. */
  signups: (ip: string, hourId: string): string => `gw:{signup:${ip}}:${hourId}`,
  /** String (JSON): a portal session, by the SHA-256 of its cookie; lives to its end plus a day. */
  session: (tokenHash: string): string => `gw:{session:${tokenHash}}`,
  /** Sorted set: an account's sessions (the SHA-256 of each cookie) scored by when each is dropped; lives as long as its last one. */
  sessionIndex: (accountId: string): string => `gw:{session-index:${accountId}}`,
  /** Hash: a subject's mailed codes, one field per slot (client network), by the SHA-256 of the subject (`sign-in:<email>`, `verify:<account>`). */
  code: (subjectHash: string): string => `gw:{code:${subjectHash}}`,
  /** Counter: typed codes checked for a subject (or, given its hash, one slot of it) in one UTC day; beside its codes' hash. */
  codeChecks: (subjectHash: string, dayId: string, slotHash?: string): string => `gw:{code:${subjectHash}}:checks:${slotHash === undefined ? '' : `${slotHash}:`}${dayId}`,
  /** Counter: sign-in codes asked for by one subject (an email or a client address, hashed) in one UTC hour. */
  signIns: (subjectHash: string, hourId: string): string => `gw:{signin:${subjectHash}}:${hourId}`,
  /** Hash: a person (`email`, `name`, `created_at`, `last_team`); durable. */
  person: (personId: string): string => `gw:{${personId}}:person`,
  /** Set: the teams a person belongs to, written after the team's own record and read back against it; durable. */
  personTeams: (personId: string): string => `gw:{${personId}}:teams`,
  /** String: the person holding an address (claimed with SET NX, which keeps addresses unique); durable. */
  personEmail: (email: string): string => `gw:person-email:${email}`,
  /** Hash: a team's members, person id → `role|joined ms|invited by`; on the team's slot, the system of record. Durable. */
  members: (teamId: string): string => `gw:{${teamId}}:members`,
  /** Hash: a team's invitations, invitation id → JSON (with its code's hash); on the team's slot, so limits and accepting are one script with the members. */
  invitations: (teamId: string): string => `gw:{${teamId}}:invites`,
  /** String: `<teamId>|<invitationId>` of the invitation whose code has this SHA-256; lives to its end plus a day. */
  invitationCode: (codeHash: string): string => `gw:{invite:${codeHash}}`,
  /** What keys made before accounts left, read once by the migration. */
  legacy: {
    record: (keyId: string): string => `gw:{${keyId}}:key`,
    month: (keyId: string, api: string, monthId: string): string => `gw:{${keyId}}:month:${api}:${monthId}`,
    day: (keyId: string, api: string, dayId: string): string => `gw:{${keyId}}:day:${api}:${dayId}`,
    keyIndex: (): string => 'gw:keys',
    /** Hash: the secrets of an account's keys before they moved into its record (2026-11); moved by the first script that misses them. */
    secrets: (accountId: string): string => `gw:{${accountId}}:secrets`,
  },
};

/** Seconds an idle second-log lives; entries older than two seconds are trimmed on every call anyway. */
export const SECOND_LOG_TTL_SECONDS = 60;

/** A listing member: creation time first, so members sort in creation order. */
export function indexMember(createdMs: number, id: string): string {
  return `${String(createdMs).padStart(13, '0')}:${id}`;
}
