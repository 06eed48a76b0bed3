import { median } from './measure';
import type { PacedResult } from './paced-load';

/** One round: the three targets paced in turn at the same rate, in one run. */
export interface HalfPeakRound {
  direct: PacedResult;
  bare: PacedResult;
  gateway: PacedResult & { busy?: number };
}

/** The paced runs at half the gateway's peak. */
export interface HalfPeak {
  rate: number;
  seconds: number;
  warmupSeconds: number;
  sliceMs: number;
  rounds: HalfPeakRound[];
}

const ms = (n: number): string => n.toFixed(2);
const list = (xs: number[], format: (n: number) => string = ms): string => xs.map(format).join(', ');

/**
 * Prints the half-peak figures. Each added latency is taken within a round (the target's percentile
 * minus the direct upstream's in the same round), and the median of the rounds is the figure. Within
 * a round the targets take turns of `sliceMs`: when each had a run of its own, a stall of the VM
 * landed in one target's run and decided the round (its ratio spread from 0.43 to 23 in one morning).
 */
export function reportHalfPeak(half: HalfPeak): void {
  const { rounds } = half;
  const added = (pick: (r: HalfPeakRound) => PacedResult, q: 'p50' | 'p99') => rounds.map((r) => pick(r)[q] - r.direct[q]);
  const gatewayP99 = added((r) => r.gateway, 'p99');
  const bareP99 = added((r) => r.bare, 'p99');
  const gatewayP50 = added((r) => r.gateway, 'p50');
  const ok = rounds.reduce((n, r) => n + r.gateway.ok, 0);
  const sent = rounds.reduce((n, r) => n + r.gateway.sent, 0);
  console.log(
    `at half the gateway's peak (${half.rate} req/s, paced in its own process, hrtime), ${rounds.length} rounds, each pacing direct, bare proxy, gateway in turns of ${half.sliceMs} ms, ${half.seconds} s each after ${half.warmupSeconds} s warm-up (${ok}/${sent} gateway calls 200):`,
  );
  console.log(`  added p99 by the gateway: ${ms(median(gatewayP99))} ms (rounds: ${list(gatewayP99)})  (target ≤ 2)`);
  console.log(`  added p99 by the bare proxy, at the same rate: ${ms(median(bareP99))} ms (rounds: ${list(bareP99)})`);
  console.log(`  added p50 by the gateway: ${ms(median(gatewayP50))} ms (rounds: ${list(gatewayP50)})`);
  console.log(
    `  p99 per round, direct / bare / gateway: ${rounds.map((r) => `${ms(r.direct.p99)} / ${ms(r.bare.p99)} / ${ms(r.gateway.p99)}`).join('; ')} ms`,
  );
  const busy = rounds.map((r) => (r.gateway.busy ?? 0) * 100);
  const lag = rounds.map((r) => Math.max(r.direct.maxLagMs, r.bare.maxLagMs, r.gateway.maxLagMs));
  console.log(`  gateway busy ${list(busy, (n) => `${n.toFixed(0)}%`)} of a core in its turns; pacer's worst lateness per round ${list(lag, (n) => n.toFixed(1))} ms`);
}
