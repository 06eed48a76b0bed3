import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LoopObserver } from '../data/background-loop';

/** The gateway's Prometheus metrics, on their own registry (no global state). */
export interface GatewayMetrics {
  registry: Registry;
  /** Calls to the proxied APIs by api, HTTP status and admission decision. */
  calls: Counter<'api' | 'status' | 'decision'>;
  /** Duration of each quota-store operation. */
  storeLatency: Histogram<'operation'>;
  /** Usage events dropped because the stream's buffer was full (the sink did not keep up). */
  usageEventsDropped: Counter;
  /** Usage events the sink took. */
  usageEventsSent: Counter;
  /** Background loops' runs by loop and outcome (`ok`, `failed`). */
  loopRuns: Counter<'loop' | 'outcome'>;
  /** Unix time of each background loop's last successful run (its start until the first). */
  loopLastSuccess: Gauge<'loop'>;
  /** Runs of a background loop that went on past its stale time. */
  loopStalls: Counter<'loop'>;
  /** Promise rejections nothing handled (logged; the process goes on). */
  unhandledRejections: Counter;
}

/** Builds the registry; `processMetrics` adds Node's default process metrics (main only). */
export function createMetrics(options: { processMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'tollgate_gateway_calls_total',
    help: 'Calls to the proxied APIs by api, status and admission decision',
    labelNames: ['api', 'status', 'decision'] as const,
    registers: [registry],
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
  const loopRuns = new Counter({ name: 'tollgate_background_runs_total', help: 'Runs of each background loop by outcome (ok, failed)', labelNames: ['loop', 'outcome'] as const, registers: [registry] });
  const loopLastSuccess = new Gauge({ name: 'tollgate_background_last_success_seconds', help: 'Unix time of each background loop’s last successful run (the loop’s start until its first)', labelNames: ['loop'] as const, registers: [registry] });
  const loopStalls = new Counter({ name: 'tollgate_background_stalls_total', help: 'Runs of a background loop still going past its stale time', labelNames: ['loop'] as const, registers: [registry] });
  const unhandledRejections = new Counter({ name: 'tollgate_unhandled_rejections_total', help: 'Promise rejections nothing handled (logged; the process goes on)', registers: [registry] });
  return { registry, calls, storeLatency, usageEventsDropped, usageEventsSent, loopRuns, loopLastSuccess, loopStalls, unhandledRejections };
}

/** Counts the background loops' runs and stalls and keeps each one's last success, in the metrics. */
export function loopObserver(metrics: GatewayMetrics): LoopObserver {
  return {
    started(name, atMs) {
      metrics.loopRuns.inc({ loop: name, outcome: 'ok' }, 0);
      metrics.loopRuns.inc({ loop: name, outcome: 'failed' }, 0);
      metrics.loopStalls.inc({ loop: name }, 0);
      metrics.loopLastSuccess.set({ loop: name }, atMs / 1000);
    },
    ended(name, outcome, atMs) {
      metrics.loopRuns.inc({ loop: name, outcome });
      if (outcome === 'ok') metrics.loopLastSuccess.set({ loop: name }, atMs / 1000);
    },
    stalled: (name) => metrics.loopStalls.inc({ loop: name }),
  };
}

/**
 * Counts one API's calls through pre-bound label children: prom-client hashes the label object on
 * every `inc({...})`, while a bound child is a plain add. Few (status, decision) pairs ever occur.
 */
export function createCallCounter(metrics: GatewayMetrics, api: string): (status: number, decision: string) => void {
  // By status, then decision: a lookup per call, no label string built.
  const children = new Map<number, Map<string, { inc(): void }>>();
  return (status, decision) => {
    let byDecision = children.get(status);
    if (!byDecision) children.set(status, (byDecision = new Map()));
    let child = byDecision.get(decision);
    if (!child) {
      child = metrics.calls.labels(api, String(status), decision);
      byDecision.set(decision, child);
    }
    child.inc();
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
