import type { UsageSink } from '../domain/usage-event';

/** One buffered call, as the stream reads it back. */
export interface UsageRow {
  requestId: string;
  accountId: string;
  keyId: string;
  api: string;
  plan: string;
  method: string;
  route: string | null;
  status: number;
  decision: string;
  upstreamMs: number;
  durationMs: number;
  bytes: number;
  atMs: number;
}

/** A row to read calls into. */
export const emptyUsageRow = (): UsageRow => ({ requestId: '', accountId: '', keyId: '', api: '', plan: '', method: '', route: null, status: 0, decision: '', upstreamMs: -1, durationMs: 0, bytes: 0, atMs: 0 });

/**
 * A bounded ring of calls kept as columns (arrays preallocated once), so a push allocates nothing:
 * it writes thirteen slots. A full ring refuses the push and counts it dropped; the oldest are read
 * first and removed only once their sink has taken them, so a sink that fails loses nothing that
 * fitted.
 */
export class UsageBuffer implements UsageSink {
  private readonly requestId: string[];
  private readonly accountId: string[];
  private readonly keyId: string[];
  private readonly api: string[];
  private readonly plan: string[];
  private readonly method: string[];
  private readonly route: (string | null)[];
  private readonly status: Int32Array;
  private readonly decision: string[];
  private readonly upstreamMs: Float64Array;
  private readonly durationMs: Float64Array;
  private readonly bytes: Float64Array;
  private readonly atMs: Float64Array;
  private head = 0;
  size = 0;
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

  /** Copies the `i`-th oldest call held into `row` (one row object serves a whole batch) and returns it. */
  read(i: number, row: UsageRow): UsageRow {
    const at = (this.head + i) % this.capacity;
    row.requestId = this.requestId[at]!;
    row.accountId = this.accountId[at]!;
    row.keyId = this.keyId[at]!;
    row.api = this.api[at]!;
    row.plan = this.plan[at]!;
    row.method = this.method[at]!;
    row.route = this.route[at]!;
    row.status = this.status[at]!;
    row.decision = this.decision[at]!;
    row.upstreamMs = this.upstreamMs[at]!;
    row.durationMs = this.durationMs[at]!;
    row.bytes = this.bytes[at]!;
    row.atMs = this.atMs[at]!;
    return row;
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
  }
}
