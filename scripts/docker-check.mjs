#!/usr/bin/env node
// Builds every image and runs the stack in containers, as CI does (.ci/run): Debian's docker.io,
// docker-compose and debootstrap when missing, a dockerd started when none answers, local stand-ins
// for the public base images when the registry cannot be reached (scripts/docker/stand-in-images.mjs;
// CI only: the Dockerfiles stay on the official images), then: every image builds (BuildKit off,
// as the Debian CLI has no buildx), and the Redis stack, the sqlite profile and the offline demo each
// turn healthy and answer through the published port. Prints each step's time and the image sizes.
// Heavy (minutes, several GB): run it under `flock /tmp/tollgate-heavy.lock` on a shared machine.
// Usage: node scripts/docker-check.mjs
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeCommand, ensureDaemon, ensurePackages, output, run } from './docker/engine.mjs';
import { baseImageNames, ensureStandIns } from './docker/stand-in-images.mjs';
import { call, checkThroughGateway, expectThat, healthy } from './docker/stack-checks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOCKERFILES = ['gateway/Dockerfile', 'services/burger/Dockerfile', 'services/token/Dockerfile', 'services/logs/Dockerfile', 'scripts/demo/Dockerfile'];
const PROJECT = 'tollgate-check';
const log = (line) => console.log(`[docker-check] ${line}`);
const timings = [];

async function step(name, action) {
  log(`${name}…`);
  const started = Date.now();
  const result = await action();
  timings.push([name, (Date.now() - started) / 1000]);
  log(`${name}: done in ${Math.round((Date.now() - started) / 1000)} s`);
  return result;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function main() {
  ensurePackages({ dockerd: 'docker.io', 'docker-compose': 'docker-compose', debootstrap: 'debootstrap' }, log);
  await ensureDaemon('/var/log/tollgate-dockerd.log', log);
  const [command, leading] = composeCommand();
  log(`compose: ${[command, ...leading].join(' ')}`);
  await step('base images (official, or local stand-ins)', () => ensureStandIns(baseImageNames(root, DOCKERFILES, 'docker-compose.yml'), log));

  const scratch = mkdtempSync(join(tmpdir(), 'tollgate-docker-check-'));
  // An empty env file: a developer's .env decides nothing here.
  writeFileSync(join(scratch, 'empty.env'), '');
  const [gatewayPort, stripePort] = [await freePort(), await freePort()];
  const adminToken = randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    DOCKER_BUILDKIT: '0',
    COMPOSE_DOCKER_CLI_BUILD: '0',
    ADMIN_TOKEN: adminToken,
    PROXY_SECRET: randomBytes(24).toString('hex'),
    GATEWAY_PORT: String(gatewayPort),
    STRIPE_LOCAL_PORT: String(stripePort),
  };
  const args = (rest) => [...leading, '--project-name', PROJECT, '--project-directory', root, '-f', join(root, 'docker-compose.yml'), '--env-file', join(scratch, 'empty.env'), ...rest];
  const compose = {
    run: (rest) => run(command, args(rest), { cwd: root, env }),
    output: (rest) => output(command, args(rest), { cwd: root, env }),
  };
  const base = `http://127.0.0.1:${gatewayPort}`;
  const all = ['--profile', 'sqlite', '--profile', 'demo'];

  // One stack at a time, taken down with its volumes whatever happened, its logs shown when it failed.
  const stack = async (name, profileArgs, services, check) =>
    step(name, async () => {
      try {
        compose.run([...profileArgs, 'up', '-d', ...services]);
        await healthy(compose, profileArgs, 300_000, log);
        await check();
      } catch (err) {
        run(command, args([...profileArgs, 'logs', '--no-color', '--tail', '40']), { cwd: root, env });
        throw err;
      } finally {
        compose.run([...all, 'down', '-v', '--remove-orphans']);
      }
    });

  try {
    compose.run([...all, 'down', '-v', '--remove-orphans']);
    await step('build every image', () => compose.run([...all, 'build']));

    await stack('the Redis stack', [], [], () => checkThroughGateway(base, adminToken, { logs: 'free' }, [['/logs/v1/chains', (d) => d.chains.length >= 8]], log));
    await stack('the sqlite profile', ['--profile', 'sqlite'], ['gateway-sqlite'], () => checkThroughGateway(base, adminToken, { logs: 'free' }, [['/logs/v1/chains', (d) => d.chains.length >= 8]], log));
    await stack('the demo profile, offline', ['--profile', 'demo'], ['gateway-demo'], async () => {
      const key = await checkThroughGateway(base, adminToken, { burger: 'pro', token: 'pro', logs: 'pro' }, [
        ['/burger/v1/index?base=eur', (d) => d.count === 54 && d.source.includes('snapshot: the copy kept in the Tollgate repository')],
        ['/token/v1/price?tokens=coingecko:ethereum', (d) => d.count === 1],
      ], log);
      // The demo container names the demo ERC-20 and its blocks once it has made the demo key.
      let transfers;
      for (let i = 0; i < 60 && !transfers; i += 1) {
        transfers = /\/logs\/v1\/transfers\?[^']+/.exec(compose.output(['--profile', 'demo', 'logs', '--no-color', 'demo']))?.[0];
        if (!transfers) await sleep(1_000);
      }
      if (!transfers) throw new Error('the demo container printed no demo key and curls');
      const logs = await call(base, transfers, { key });
      expectThat(`GET ${transfers}`, logs, (a) => a.status === 200 && a.body.data.count === 12);
      log(`GET /logs/v1/transfers (anvil in the demo container): 200, ${logs.body.data.count} transfers`);
      const stripe = await call(`http://127.0.0.1:${stripePort}`, '/v1/prices?limit=100', { bearer: 'sk_test_docker_check' });
      expectThat('stripe-local through its published port', stripe, (a) => a.status === 200 && a.body.data.length > 0);
      log(`stripe-local through its published port: 200, the catalogue synced (${stripe.body.data.length} prices)`);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  console.log('\nImage sizes:');
  console.log(output('docker', ['image', 'ls', '--filter', 'reference=tollgate/*', '--format', '  {{.Repository}}:{{.Tag}}\t{{.Size}}']).trimEnd());
  console.log('\nTimes:');
  for (const [name, seconds] of timings) console.log(`  ${name.padEnd(45)} ${seconds.toFixed(0).padStart(5)} s`);
}

main().catch((err) => {
  console.error(`[docker-check] FAILED: ${err.message}`);
  process.exit(1);
});
