// The demo's stand-ins in a container (`docker compose --profile demo up gateway-demo`): the Big Mac
// copy served as its raw file host would, the local price indexer, anvil with the demo ERC-20,
// and stripe-local with its state on the `demo-data` volume; once the gateway answers, the demo
// account and key, and what to try, in this container's log. Nothing here reaches the internet.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStripeLocal } from '../../packages/stripe-local/src/index';
import { DEMO_EMAIL, ensureDemoKey } from '../stack/demo-key';
import { startDemoUpstreams } from '../stack/demo-upstreams';

/** The ports the compose file's services are pointed at (BURGER_DATA_URL, TOKEN_UPSTREAM_URL, LOGS_RPC_ETHEREUM, STRIPE_API_BASE). */
const PORTS = { csv: 8090, indexer: 8091, rpc: 8545, stripe: 12111 };
const READY_FILE = '/tmp/stand-ins-ready';
const TICK_MS = 30_000;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the compose file sets it)`);
  return value;
}

async function main(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const data = process.env.DEMO_DATA_DIR ?? '/data';
  const gatewayUrl = required('GATEWAY_URL');
  const publicUrl = required('PUBLIC_URL');
  const upstreams = await startDemoUpstreams(root, { host: '0.0.0.0', ports: PORTS });
  // Stripe sends webhooks to PUBLIC_URL (the browser's address of the gateway); inside the network the gateway is GATEWAY_URL.
  const forward: typeof fetch = (input, init) => fetch(String(input).replace(publicUrl, gatewayUrl), init);
  const stripe = createStripeLocal({
    stateFile: join(data, 'stripe-local.json'),
    publicUrl: required('STRIPE_LOCAL_PUBLIC_URL'),
    webhookSecret: required('STRIPE_LOCAL_WEBHOOK_SECRET'),
    accountName: process.env.STRIPE_LOCAL_ACCOUNT_NAME || 'Tollgate',
    // Receipts on: each is printed to this container's log, as the person would receive it.
    mailReceipt: (mail) => console.error(`[stripe-local] receipt mailed to ${mail.to}: ${mail.subject}\n${mail.text.replace(/^/gm, '    ')}`),
    fetch: forward,
    log: (line) => console.error(`[stripe-local] ${line}`),
  });
  await stripe.listen(PORTS.stripe, '0.0.0.0');
  const ticker = setInterval(() => stripe.tick(), TICK_MS);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      clearInterval(ticker);
      void Promise.all([stripe.close(), upstreams.stop()]).then(() => process.exit(0));
    });
  }
  writeFileSync(READY_FILE, 'ready\n');
  console.log(`stand-ins ready: Big Mac CSV :${PORTS.csv}, price indexer :${PORTS.indexer}, anvil :${PORTS.rpc} (ethereum), stripe-local :${PORTS.stripe}`);

  // The gateway starts once this container is healthy; its demo account and key come after. The
  // stand-ins keep serving whatever happens to the key.
  void announceDemoKey(gatewayUrl, publicUrl, join(data, 'demo-key'), upstreams.erc20).catch((err: unknown) => {
    console.error(`demo stand-ins: the demo key could not be made: ${(err as Error).message}`);
  });
}

/** Once the gateway answers: the demo account and key, and what to try with them, in this container's log. */
async function announceDemoKey(gatewayUrl: string, publicUrl: string, file: string, erc20: { address: string; fromBlock: number; toBlock: number }): Promise<void> {
  while (!(await fetch(`${gatewayUrl}/readyz`).then((res) => res.ok, () => false))) await sleep(1_000);
  const key = await ensureDemoKey(gatewayUrl, required('ADMIN_TOKEN'), file);
  const { address, fromBlock, toBlock } = erc20;
  console.log(
    [
      '',
      `Tollgate demo: ${publicUrl}/ (portal), ${publicUrl}/docs, ${publicUrl}/admin/ (the admin token is ADMIN_TOKEN)`,
      `Demo key (pro plan on all three APIs; the same while the gateway-demo-data volume keeps it): ${key}`,
      `  curl -s '${publicUrl}/burger/v1/index?base=eur&sort=valuation' -H 'x-tollgate-key: ${key}'`,
      `  curl -s '${publicUrl}/token/v1/price?tokens=coingecko:ethereum' -H 'x-tollgate-key: ${key}'`,
      `  curl -s '${publicUrl}/logs/v1/transfers?chain=ethereum&token=${address}&from_block=${fromBlock}&to_block=${toBlock}' -H 'x-tollgate-key: ${key}'`,
      `  Sign in at ${publicUrl}/portal/ as ${DEMO_EMAIL} to watch it (the code is in the gateway-demo container's log).`,
      `Card payments go to stripe-local at ${process.env.STRIPE_LOCAL_PUBLIC_URL}: 4242 4242 4242 4242 pays, 4000 0000 0000 0341 fails at renewal, 4000 0000 0000 9995 is declined.`,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(`demo stand-ins: ${(err as Error).message}`);
  process.exit(1);
});
