import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PATH, isHelperServer, keysFor } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import { startChild } from './child-server';
import { GATEWAY_SOURCE, START_FLAGS, buildGateway } from './gateway-build';
import { profileShares, topFunctions } from './profile-shares';
import type { CpuProfile } from './profile-shares';
import { rotate } from './measure';

/**
 * Where the gateway's CPU goes: the built gateway (Redis store, LOG_LEVEL=info) runs under
 * `--cpu-prof`, is loaded by 64 connections for PROFILE_SECONDS (10) after a 2 s warm-up, and
 * stopped; the profile's samples are put in the parts of bench/README.md by the innermost frame
 * of the gateway's own code or of a library it calls (see profile-shares.ts).
 *
 *   [PROFILE_BUILD=old-dist/main.js|bench/baseline.ts|bench/bare-proxy.ts|bench/bare-undici-proxy.ts] [PROFILE_SECONDS=10] [PROFILE_TOP=30]
 *   flock /tmp/tollgate-heavy.lock node --conditions=development --import tsx bench/cpu-profile.ts
 */
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
// Another build to profile (a copy of dist/ under gateway/, so it finds the same node_modules).
const BUILD = process.env.PROFILE_BUILD ?? 'dist/main.js';
const OTHER = isHelperServer(BUILD);
// PROFILE_TOP=n: also the n functions with the most samples of their own, wherever they are.
const TOP = Number(process.env.PROFILE_TOP ?? 0);

async function main(): Promise<void> {
  buildGateway();
  await withBenchServers(async ({ dir, env }) => {
    const gateway = await startChild(BUILD, { ...env, UPSTREAM_URL: env.TOKEN_URL ?? '', LOG_LEVEL: 'info' }, [...(OTHER ? [] : START_FLAGS), '--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const nextKey = rotate(await keysFor(BUILD, gateway, 200));
    const load = (seconds: number) =>
      autocannon({ url: gateway.url + BENCH_PATH, connections: 64, duration: seconds, requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }] });
    await load(2);
    const result = await load(SECONDS);
    await gateway.stop();
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the gateway wrote no profile');
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const shares = profileShares(profile);
    console.log(`${OTHER ? '' : 'gateway from '}${BUILD === 'dist/main.js' ? GATEWAY_SOURCE : BUILD} on Node ${process.version}, Redis store, LOG_LEVEL=info; ${result.requests.total} calls in ${SECONDS} s (${result['2xx']} 2xx) after a 2 s warm-up`);
    if (TOP) console.table(topFunctions(profile, TOP));
    console.table(shares.map((s) => ({ part: s.part, 'share of busy time': `${(s.share * 100).toFixed(1)}%`, 'top functions': s.top.join(', ') })));
  });
}

runBench(main);
