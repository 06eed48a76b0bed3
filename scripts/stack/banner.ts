import type { DemoUpstreams } from './demo-upstreams';
import type { Stack } from './start-stack';

/** What the banner shows. */
export interface BannerInput {
  stack: Stack;
  store: string;
  demoKey?: string;
  upstreams?: DemoUpstreams;
}

/** Prints where everything is, how to get a key and, in demo mode, a ready-to-paste curl per API. */
export function printBanner({ stack, store, demoKey, upstreams }: BannerInput): void {
  const gw = stack.urls.gateway;
  const lines = [
    '',
    'Tollgate is up.',
    `  gateway   ${gw}   (API docs: ${gw}/docs, metrics: ${gw}/metrics)`,
    `  burger    ${stack.urls.burger}   token ${stack.urls.token}   logs ${stack.urls.logs}   (internal: they need the proxy secret)`,
    `  store     ${store}`,
    `  admin     ADMIN_TOKEN=${stack.adminToken}`,
    '',
    'Get a key:',
    `  curl -s -X POST ${gw}/dashboard/v1/signup -H 'content-type: application/json' -d '{"email":"you@example.com"}'`,
    `  curl -s -X PUT ${gw}/dashboard/v1/subscriptions/burger -H 'x-tollgate-key: <key>' -H 'content-type: application/json' -d '{"plan":"free"}'`,
    `  or, as the operator: curl -s -X POST ${gw}/admin/v1/keys -H 'authorization: Bearer ${stack.adminToken}' -H 'content-type: application/json' -d '{"owner":"me","subscriptions":{"burger":"free"}}'`,
  ];
  if (demoKey && upstreams) {
    const { address, fromBlock, toBlock } = upstreams.erc20;
    lines.push(
      '',
      `Demo key (pro plan on all three APIs): ${demoKey}`,
      `  curl -s '${gw}/burger/v1/index?base=eur&sort=valuation' -H 'x-tollgate-key: ${demoKey}'`,
      `  curl -s '${gw}/token/v1/price?tokens=ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,coingecko:ethereum' -H 'x-tollgate-key: ${demoKey}'`,
      `  curl -s '${gw}/logs/v1/transfers?chain=ethereum&token=${address}&from_block=${fromBlock}&to_block=${toBlock}' -H 'x-tollgate-key: ${demoKey}'`,
    );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  console.log(lines.join('\n'));
}
