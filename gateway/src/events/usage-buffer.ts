import type { UsageSink } from '../domain/usage-event';

/** The ring's columns, as the event writer reads them: slot `at` of each is one call. */
export interface UsageColumns {
  readonly requestId: readonly string[];
  readonly accountId: readonly string[];
  readonly keyId: readonly string[];
  readonly api: readonly string[];
  readonly plan: readonly string[];
  readonly method: readonly string[];
  readonly route: readonly (string | null)[];
  readonly status: Int32Array;
  readonly decision: readonly string[];
  /** -1: the call never reached the service. */
  readonly upstreamMs: Float64Array;
  readonly durationMs: Float64Array;
  readonly bytes: Float64Array;
  readonly atMs: Float64Array;
}

/**
 * A bounded ring of calls kept as columns (arrays preallocated once), so a push allocates nothing:
 * it writes thirteen slots, and the event writer reads them where they are. A full ring refuses the push and counts it dropped; the oldest are read
 * first and removed only once their sink has taken them, so a sink that fails loses nothing that
 * fitted.
 */
export class UsageBuffer implements UsageSink, UsageColumns {
  readonly requestId: string[];
  readonly accountId: string[];
  readonly keyId: string[];
  readonly api: string[];
  readonly plan: string[];
  readonly method: string[];
  readonly route: (string | null)[];
  readonly status: Int32Array;
  readonly decision: string[];
  readonly upstreamMs: Float64Array;
  readonly durationMs: Float64Array;
  readonly bytes: Float64Array;
  readonly atMs: Float64Array;
  private head = 0;
  size = 0;
  /**
   * Calls removed since the start (their sink took them): the oldest call held is the
   * `shifted`-th the ring took, so `shifted + i` numbers the `i`-th oldest for good, whichever batch
   * it is sent again in.
   */
  shifted = 0;
  /** Calls refused because the ring was full, since the start. */
  dropped = 0;

  constructor(
    readonly capacity: number,
    /** Told when the ring holds `batch` calls (a sink may take them now), and when one is dropped. */
    private readonly onFill: { batch: number; full: () => void; dropped: () => void },
  ) {
    const strings = (): string[] => new Array<string>(capacity).fill('');
    this.requestId = strings();
    this.accountId = strings();
    this.keyId = strings();
    this.api = strings();
    this.plan = strings();
    this.method = strings();
    this.route = new Array<string | null>(capacity).fill(null);
    this.decision = strings();
    this.status = new Int32Array(capacity);
    this.upstreamMs = new Float64Array(capacity);
    this.durationMs = new Float64Array(capacity);
    this.bytes = new Float64Array(capacity);
    this.atMs = new Float64Array(capacity);
  }

  push(requestId: string, accountId: string, keyId: string, api: string, plan: string, method: string, route: string | null, status: number, decision: string, upstreamMs: number, durationMs: number, bytes: number, atMs: number): void {
    if (this.size === this.capacity) {
      this.dropped += 1;
      this.onFill.dropped();
      return;
    }
    const at = (this.head + this.size) % this.capacity;
    this.requestId[at] = requestId;
    this.accountId[at] = accountId;
    this.keyId[at] = keyId;
    this.api[at] = api;
    this.plan[at] = plan;
    this.method[at] = method;
    this.route[at] = route;
    this.status[at] = status;
    this.decision[at] = decision;
    this.upstreamMs[at] = upstreamMs;
    this.durationMs[at] = durationMs;
    this.bytes[at] = bytes;
    this.atMs[at] = atMs;
    if (++this.size === this.onFill.batch) this.onFill.full();
  }

  /** The slot of the `i`-th oldest call held (0 the oldest) in the columns; read it before the next shift. */
  slot(i: number): number {
    return (this.head + i) % this.capacity;
  }

  /** Removes the oldest `count` calls (a sink has taken them). */
  shift(count: number): void {
    const n = Math.min(count, this.size);
    for (let i = 0; i < n; i++) {
      const at = (this.head + i) % this.capacity;
      this.requestId[at] = this.accountId[at] = this.keyId[at] = '';
      this.route[at] = null;
    }
    this.head = (this.head + n) % this.capacity;
    this.size -= n;
    this.shifted += n;
  }
}
