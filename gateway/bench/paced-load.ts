import { RawHttpClient } from './raw-client';

/** Latency percentiles (ms, sub-millisecond precision) of a fixed-rate run. */
export interface PacedResult {
  sent: number;
  ok: number;
  p50: number;
  p99: number;
  /** The worst lateness of the pacer itself (ms): a busy load generator shows up here, not as server latency. */
  maxLagMs: number;
}

/** A server to pace calls to. */
export interface PacedTarget {
  url: string;
  /** API keys sent in turn as `x-tollgate-key`; none for the direct upstream. */
  keys?: string[];
}

/** Options of {@link pacedLoad}. */
export interface PacedOptions extends PacedTarget {
  ratePerSecond: number;
  /** Measured seconds, after `warmupSeconds` at the same rate whose latencies are discarded. */
  seconds: number;
  warmupSeconds: number;
}

/** Options of {@link interleavedLoad}: `seconds` and `warmupSeconds` are each target's. */
export interface InterleavedOptions extends Omit<PacedOptions, keyof PacedTarget> {
  targets: PacedTarget[];
  /** How long each target is paced before the next one's turn. */
  sliceMs: number;
}

const TICK_MS = 1;

/** Open-loop load at a fixed rate on one server: {@link interleavedLoad} with one target. */
export async function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const { url, keys, ...rest } = options;
  const [result] = await interleavedLoad({ ...rest, targets: [{ url, keys }], sliceMs: Number.POSITIVE_INFINITY });
  return result as PacedResult;
}

/**
 * Open-loop load at a fixed rate: every millisecond tick sends the requests that are due, whether
 * or not earlier ones have returned, and each latency is timed with hrtime (autocannon rounds to
 * whole ms). The pacer sleeps between ticks instead of spinning: a spinning pacer takes a whole
 * core, which on a 2-core machine starves the very servers it measures. For the same reason it
 * sends prebuilt requests through {@link RawHttpClient} rather than `http.request`.
 *
 * With several targets, the rate goes to each in turn for `sliceMs`, round and round, so that the
 * machine's stalls (tens of ms to a second on this VM, at random times) fall on every target alike
 * instead of deciding whichever target's whole run they landed in.
 */
export async function interleavedLoad(options: InterleavedOptions): Promise<PacedResult[]> {
  const { ratePerSecond, targets, sliceMs } = options;
  const lanes = targets.map((t) => {
    const target = new URL(t.url);
    const path = target.pathname + target.search;
    return {
      client: new RawHttpClient(Number(target.port), target.hostname),
      requests: (t.keys?.length ? t.keys : ['']).map((key) => RawHttpClient.get(path, target.host, key ? { 'x-tollgate-key': key } : {})),
      latencies: [] as number[],
      sent: 0,
      measured: 0,
      ok: 0,
      maxLagMs: 0,
    };
  });
  const n = lanes.length;
  const warmup = Math.round(ratePerSecond * options.warmupSeconds * n);
  const total = warmup + Math.round(ratePerSecond * options.seconds * n);
  let sent = 0;
  let pending = 0;
  const started = process.hrtime.bigint();
  const fire = (measured: boolean, dueMs: number, done: () => void) => {
    const lane = lanes[Math.floor(dueMs / sliceMs) % n] as (typeof lanes)[number];
    const t0 = process.hrtime.bigint();
    if (measured) lane.measured++;
    pending++;
    lane.client.send(lane.requests[lane.sent++ % lane.requests.length] as Buffer, (status) => {
      if (measured && status !== 0) {
        lane.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (status === 200) lane.ok++;
      }
      pending--;
      done();
    });
    return lane;
  };
  await new Promise<void>((resolve) => {
    const settle = () => {
      if (sent === total && pending === 0) resolve();
    };
    const tick = () => {
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      const due = Math.min(total, Math.floor((elapsedMs / 1000) * ratePerSecond));
      while (sent < due) {
        const dueMs = (sent / ratePerSecond) * 1000;
        const lane = fire(sent >= warmup, dueMs, settle);
        // How far behind schedule the request is sent: the pacer's own lateness.
        if (sent >= warmup) lane.maxLagMs = Math.max(lane.maxLagMs, elapsedMs - dueMs);
        sent++;
      }
      if (sent < total) setTimeout(tick, TICK_MS);
      else settle();
    };
    tick();
  });
  return lanes.map((lane) => {
    lane.client.close();
    const latencies = lane.latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return { sent: lane.measured, ok: lane.ok, p50: at(0.5), p99: at(0.99), maxLagMs: lane.maxLagMs };
  });
}
