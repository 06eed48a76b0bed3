import http from 'node:http';

/** Latency percentiles (ms, sub-millisecond precision) of a fixed-rate run. */
export interface PacedResult {
  sent: number;
  ok: number;
  p50: number;
  p99: number;
}

/**
 * Open-loop load at a fixed rate for `seconds`: requests leave on schedule whether or not earlier
 * ones have returned, and each latency is timed with hrtime (autocannon rounds to whole ms).
 */
export async function pacedLoad(url: string, ratePerSecond: number, seconds: number, headers: () => Record<string, string>): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const target = new URL(url);
  const latencies: number[] = [];
  let sent = 0;
  let ok = 0;
  const total = Math.round(ratePerSecond * seconds);
  const started = process.hrtime.bigint();
  const inFlight: Promise<void>[] = [];
  const fire = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.get({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: headers() }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.statusCode === 200) ok++;
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
  while (sent < total) {
    const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
    const due = Math.min(total, Math.floor(elapsedS * ratePerSecond));
    while (sent < due) {
      inFlight.push(fire());
      sent++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { sent, ok, p50: at(0.5), p99: at(0.99) };
}
