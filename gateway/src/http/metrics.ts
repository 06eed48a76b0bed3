import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Calls of one (api, status, decision) counted since the last scrape. */
interface CallTally {
  labels: { api: string; status: string; decision: string };
  count: number;
}

/** The gateway's Prometheus metrics, on their own registry (no global state). */
export interface GatewayMetrics {
  registry: Registry;
  /** Calls to the proxied APIs by api, HTTP status and admission decision (see {@link createCallCounter}). */
  calls: Counter<'api' | 'status' | 'decision'>;
  /** The tallies {@link createCallCounter} keeps, added to `calls` when it is read. */
  callTallies: CallTally[];
  /** Duration of each quota-store operation. */
  storeLatency: Histogram<'operation'>;
  /** Usage events dropped because the stream's buffer was full (the sink did not keep up). */
  usageEventsDropped: Counter;
  /** Usage events the sink took. */
  usageEventsSent: Counter;
}

/** Builds the registry; `processMetrics` adds Node's default process metrics (main only). */
export function createMetrics(options: { processMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const callTallies: CallTally[] = [];
  const calls = new Counter({
    name: 'tollgate_gateway_calls_total',
    help: 'Calls to the proxied APIs by api, status and admission decision',
    labelNames: ['api', 'status', 'decision'] as const,
    registers: [registry],
    // prom-client runs this whenever the counter is read (a scrape): the calls tallied since go in.
    collect() {
      for (const tally of callTallies) {
        if (tally.count === 0) continue;
        this.inc(tally.labels, tally.count);
        tally.count = 0;
      }
    },
  });
  const storeLatency = new Histogram({
    name: 'tollgate_gateway_store_seconds',
    help: 'Quota store (Redis) operation latency in seconds',
    labelNames: ['operation'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [registry],
  });
  const usageEventsDropped = new Counter({ name: 'tollgate_usage_events_dropped_total', help: 'Usage events dropped because the buffer was full (the sink did not keep up)', registers: [registry] });
  const usageEventsSent = new Counter({ name: 'tollgate_usage_events_sent_total', help: 'Usage events taken by the sink', registers: [registry] });
  return { registry, calls, callTallies, storeLatency, usageEventsDropped, usageEventsSent };
}

/**
 * Counts one API's calls in tallies of its own, which the calls counter takes in when it is read:
 * prom-client builds and checks a label string on every `inc`, even a bound child's, where a
 * tally is a plain add. Few (status, decision) pairs ever occur.
 */
export function createCallCounter(metrics: GatewayMetrics, api: string): (status: number, decision: string) => void {
  // By status, then decision: a lookup per call, no label string built.
  const tallies = new Map<number, Map<string, CallTally>>();
  return (status, decision) => {
    let byDecision = tallies.get(status);
    if (!byDecision) tallies.set(status, (byDecision = new Map()));
    let tally = byDecision.get(decision);
    if (!tally) {
      tally = { labels: { api, status: String(status), decision }, count: 0 };
      byDecision.set(decision, tally);
      metrics.callTallies.push(tally);
    }
    tally.count += 1;
  };
}

/** Records quota-store latencies through one pre-bound histogram child per operation (see {@link createCallCounter}). */
export function createStoreLatencyRecorder(metrics: GatewayMetrics): (operation: string, seconds: number) => void {
  const children = new Map<string, { observe(seconds: number): void }>();
  return (operation, seconds) => {
    let child = children.get(operation);
    if (!child) {
      child = metrics.storeLatency.labels(operation);
      children.set(operation, child);
    }
    child.observe(seconds);
  };
}
