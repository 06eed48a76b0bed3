// `npm start` (and `npm start -- --demo`): runs the gateway and the three services as separate
// processes with prefixed, readable logs, prints where they are and how to get a key, and stops
// everything on Ctrl-C. `--demo` also runs local stand-ins for every upstream and makes a demo key.
import { join } from 'node:path';
import { createDemoKey } from './stack/demo-key';
import { printBanner } from './stack/banner';
import { startDemoUpstreams } from './stack/demo-upstreams';
import type { DemoUpstreams } from './stack/demo-upstreams';
import { createPrettyOutput } from './stack/pretty-output';
import { startStack } from './stack/start-stack';

async function main(): Promise<void> {
  const root = join(__dirname, '..');
  const demo = process.argv.includes('--demo') || process.env.TOLLGATE_DEMO === '1';
  const redisUrl = process.env.REDIS_URL;

  let upstreams: DemoUpstreams | undefined;
  if (demo) {
    console.log('[stack] demo mode: starting local upstreams (Big Mac CSV file server, price indexer, anvil)');
    upstreams = await startDemoUpstreams(root);
  }
  const stack = await startStack({
    root,
    adminToken: process.env.ADMIN_TOKEN,
    outputStream: createPrettyOutput(),
    env: {
      gateway: redisUrl ? { REDIS_URL: redisUrl } : {},
      burger: upstreams?.env.burger ?? {},
      token: upstreams?.env.token ?? {},
      logs: upstreams?.env.logs ?? {},
    },
  }).catch(async (err: unknown) => {
    await upstreams?.stop();
    throw err;
  });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('[stack] stopping…');
    await stack.stop();
    await upstreams?.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  const demoKey = upstreams ? await createDemoKey(stack.urls.gateway, stack.adminToken) : undefined;
  printBanner({ stack, store: redisUrl ? `Redis at ${redisUrl}` : 'embedded in-memory store (one process only; set REDIS_URL for Redis)', demoKey, upstreams });
}

main().catch((err: unknown) => {
  console.error(`[stack] ${(err as Error).message}`);
  process.exit(1);
});
