// `npm start` (and `npm start -- --demo`): runs the gateway and the three services as separate
// processes with prefixed, readable logs, says which upstreams they cannot reach, prints where they
// are and how to get a key once their start-up lines are out, and stops everything on Ctrl-C.
// `--demo` also runs local stand-ins for every upstream and for Stripe (card payments with test
// cards; its state and port kept in stripe-local.json beside the store), lets webhooks reach this
// machine, keeps request logs quiet unless --verbose, and makes the demo account and key once (kept
// in demo-key beside the store, reused while the store keeps them). Any failure before the banner,
// and any deployable ending after it, stops the stack with a non-zero exit code and a line naming
// the deployable.
import { dirname, join, resolve } from 'node:path';
import { printBanner } from './stack/banner';
import { checkPorts } from './stack/check-ports';
import { startDemoBilling } from './stack/demo-billing';
import type { DemoBilling } from './stack/demo-billing';
import { ensureDemoKey } from './stack/demo-key';
import { startDemoUpstreams } from './stack/demo-upstreams';
import type { DemoUpstreams } from './stack/demo-upstreams';
import { DEPLOYABLE_NAMES } from './stack/deployables';
import type { DeployableName } from './stack/deployables';
import { loadStackConfig } from './stack/load-stack-config';
import { createPrettyOutput, quietened } from './stack/pretty-output';
import { probeUpstreams } from './stack/probe-upstreams';
import { describeExit, startStack } from './stack/start-stack';
import type { Stack } from './stack/start-stack';
import { upstreamUrls } from './stack/upstream-urls';

let stopping = false;
let stack: Stack | undefined;
let upstreams: DemoUpstreams | undefined;
let billing: DemoBilling | undefined;

async function stopAll(): Promise<void> {
  stopping = true;
  await stack?.stop();
  await upstreams?.stop();
  await billing?.stop();
}

async function main(): Promise<void> {
  const root = join(__dirname, '..');
  // Any stop signal, to this process alone or to the terminal's whole group, stops every deployable.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
  // The launcher killed outright (SIGKILL) cannot pass anything on: its going away is the signal.
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) void shutdown();
  }, 250).unref();
  const config = loadStackConfig(process.env, process.argv.slice(2), Boolean(process.stdout.isTTY));
  // Before the demo upstreams, which take seconds; startStack checks again just before it starts.
  await checkPorts(config.ports);

  // Beside the store (or where it would be): the demo's key and stripe-local's state live as long as the accounts they serve.
  const demoDir = resolve(root, config.storePath === ':memory:' ? 'data' : dirname(config.storePath));
  if (config.demo) {
    console.log('[stack] demo mode: starting local upstreams (Big Mac CSV file server, price indexer, anvil)');
    upstreams = await startDemoUpstreams(root);
    console.log('[stack] demo mode: starting stripe-local (a local stand-in for Stripe) and syncing the plan catalogue to it');
    billing = await startDemoBilling(root, `http://127.0.0.1:${config.ports.gateway}`, join(demoDir, 'stripe-local.json'));
  }
  const passed: Record<DeployableName, Record<string, string>> = {
    // The demo lets webhooks reach this machine, so `pnpm webhooks:listen` can receive them.
    gateway: { ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}), ...billing?.env, ...(config.demo ? { WEBHOOKS_ALLOW_PRIVATE: 'true' } : {}) },
    burger: upstreams?.env.burger ?? {},
    token: upstreams?.env.token ?? {},
    logs: upstreams?.env.logs ?? {},
  };
  const demoKeyFile = join(demoDir, 'demo-key');
  const output = createPrettyOutput({ color: config.color, requestLogs: config.requestLogs });
  const running = await startStack({ root, ports: config.ports, adminToken: config.adminToken, adminTokenFile: config.adminTokenFile, outputStream: output, env: passed });
  stack = running;

  // Until the banner is out, a deployable ending is a failed start, not something to find out later.
  const ended = running.exited.then((exit) => Promise.reject(new Error(describeExit(exit, 'during start-up'))));
  const [problems, demoKey] = await Promise.race([
    Promise.all([
      upstreamUrls(passed, process.env).then((urls) => probeUpstreams({ burgerServiceUrl: running.urls.burger, upstreams: urls })),
      upstreams ? ensureDemoKey(running.urls.gateway, running.admin.token, demoKeyFile) : undefined,
    ]),
    ended,
  ]);
  void running.exited.then(async (exit) => {
    if (stopping) return;
    console.error(`[stack] ${describeExit(exit, 'while the stack was running')}; stopping everything`);
    await stopAll();
    process.exit(1);
  });

  const store = config.redisUrl
    ? `Redis at ${config.redisUrl}`
    : config.storePath === ':memory:'
      ? 'in-memory store (lost on restart; one process only)'
      : `embedded SQLite file ${resolve(root, config.storePath)} (kept across restarts; one gateway process; set REDIS_URL for Redis)`;
  // After the start-up burst (each deployable's first lines, burger's first load), so it stays on screen.
  await quietened(output, DEPLOYABLE_NAMES, 500, 8_000);
  printBanner({ stack: running, store, demoKey, upstreams, problems, stripeLocalUrl: billing?.url, requestLogs: config.requestLogs });
}

async function shutdown(): Promise<void> {
  if (stopping) return;
  console.log('[stack] stopping…');
  await stopAll();
  process.exit(0);
}

main().catch(async (err: unknown) => {
  for (const line of (err as Error).message.split('\n')) console.error(`[stack] ${line}`);
  if (!stopping) await stopAll().catch(() => undefined);
  process.exit(1);
});
