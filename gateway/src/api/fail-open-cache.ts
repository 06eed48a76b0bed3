/** What a recent admission proved about a key, enough to let it through while the store is down. */
interface Verified {
  keyId: string;
  accountId: string;
  /** When the secret stops working whatever the store says (expiry, roll grace); 0 for never. */
  validUntilMs: number;
  plans: Map<string, string>;
  atMs: number;
}

/**
 * Keys verified recently (by their hash), for `QUOTA_FAIL_MODE=open`: while the store is down, a
 * key admitted in the last `maxAgeMs` goes through with the plan it had; any other key still gets
 * 503, because failing open must not let unknown or revoked keys in. Bounded, oldest dropped first.
 * It remembers only while revocations are heard: a key verified before that could have been revoked unheard.
 */
export class FailOpenCache {
  private readonly entries = new Map<string, Verified>();
  private heard = false;

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxAgeMs = 15 * 60_000,
  ) {}

  remember(hash: string, keyId: string, accountId: string, api: string, plan: string, nowMs: number, validUntilMs = 0): void {
    if (!this.heard) return;
    const entry = this.entries.get(hash) ?? { keyId, accountId, validUntilMs, plans: new Map<string, string>(), atMs: nowMs };
    entry.validUntilMs = validUntilMs;
    entry.plans.set(api, plan);
    entry.atMs = nowMs;
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }

  /** Drops a key by its id (revoked or rolled), or every key of an account by the account's (suspended), here or by another gateway. */
  forgetId(id: string): void {
    for (const [hash, entry] of this.entries) if (entry.keyId === id || entry.accountId === id) this.entries.delete(hash);
  }

  /** Whether revocations are heard, so what is remembered can be trusted. */
  get listening(): boolean {
    return this.heard;
  }

  /** Drops every key (revocations may have been missed until now) and remembers from now on only when `heard`. */
  restart(heard: boolean): void {
    this.entries.clear();
    this.heard = heard;
  }

  /** The key id and plan a recently verified key had for this API. */
  lookup(hash: string, api: string, nowMs: number): { keyId: string; plan: string } | undefined {
    const entry = this.entries.get(hash);
    const plan = entry?.plans.get(api);
    if (!entry || plan === undefined || nowMs - entry.atMs > this.maxAgeMs) return undefined;
    if (entry.validUntilMs > 0 && nowMs >= entry.validUntilMs) return undefined;
    return { keyId: entry.keyId, plan };
  }
}
