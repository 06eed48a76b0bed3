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

/** Options of {@link pacedLoad}. */
export interface PacedOptions {
  url: string;
  ratePerSecond: number;
  /** Measured seconds, after `warmupSeconds` at the same rate whose latencies are discarded. */
  seconds: number;
  warmupSeconds: number;
  /** API keys sent in turn as `x-tollgate-key`; none for the direct upstream. */
  keys?: string[];
}

const TICK_MS = 1;

/**
 * Open-loop load at a fixed rate: every millisecond tick sends the requests that are due, whether
 * or not earlier ones have returned, and each latency is timed with hrtime (autocannon rounds to
 * whole ms). The pacer sleeps between ticks instead of spinning: a spinning pacer takes a whole
 * core, which on a 2-core machine starves the very servers it measures. For the same reason it
 * sends prebuilt requests through {@link RawHttpClient} rather than `http.request`.
 */
export async function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const { ratePerSecond } = options;
  const target = new URL(options.url);
  const client = new RawHttpClient(Number(target.port), target.hostname);
  const path = target.pathname + target.search;
  const requests = (options.keys?.length ? options.keys : ['']).map((key) =>
    RawHttpClient.get(path, target.host, key ? { 'x-tollgate-key': key } : {}),
  );
  const latencies: number[] = [];
  const warmup = Math.round(ratePerSecond * options.warmupSeconds);
  const total = warmup + Math.round(ratePerSecond * options.seconds);
  let sent = 0;
  let ok = 0;
  let maxLagMs = 0;
  let pending = 0;
  const started = process.hrtime.bigint();
  const fire = (measured: boolean, done: () => void) => {
    const t0 = process.hrtime.bigint();
    pending++;
    client.send(requests[sent % requests.length] as Buffer, (status) => {
      if (measured && status !== 0) {
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (status === 200) ok++;
      }
      pending--;
      done();
    });
  };
  await new Promise<void>((resolve) => {
    const settle = () => {
      if (sent === total && pending === 0) resolve();
    };
    const tick = () => {
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      const due = Math.min(total, Math.floor((elapsedMs / 1000) * ratePerSecond));
      // How far behind schedule the oldest due request is: the pacer's own lateness.
      if (due > sent && sent >= warmup) maxLagMs = Math.max(maxLagMs, elapsedMs - (sent / ratePerSecond) * 1000);
      while (sent < due) {
        fire(sent >= warmup, settle);
        sent++;
      }
      if (sent < total) setTimeout(tick, TICK_MS);
      else settle();
    };
    tick();
  });
  client.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { sent: sent - warmup, ok, p50: at(0.5), p99: at(0.99), maxLagMs };
}
