import { DEMO_EMAIL } from './demo-key';
import type { DemoUpstreams } from './demo-upstreams';
import type { UpstreamProblem } from './probe-upstreams';
import type { Stack } from './start-stack';

/** What the banner shows. */
export interface BannerInput {
  stack: Stack;
  store: string;
  demoKey?: string;
  upstreams?: DemoUpstreams;
  /** Upstreams the services cannot reach; said first, since the stack looks healthy without them. */
  problems?: readonly UpstreamProblem[];
  /** The demo's Stripe stand-in, when card payments run against it. */
  stripeLocalUrl?: string;
  /** Whether a line per request is printed (off in the demo unless asked). */
  requestLogs?: boolean;
}

/** The banner's text: where everything is, how to get a key and, in demo mode, a ready-to-paste curl per API. */
export function bannerText({ stack, store, demoKey, upstreams, problems = [], stripeLocalUrl, requestLogs = true }: BannerInput): string {
  const gw = stack.urls.gateway;
  const lines = [''];
  if (problems.length === 0) {
    lines.push('Tollgate is up.');
  } else {
    const names = problems.map((p) => p.deployable).join(', ');
    const one = problems.length === 1;
    lines.push(`Tollgate is up, but ${names} cannot reach ${one ? 'its upstream' : 'their upstreams'}: calls to ${one ? 'that API' : 'those APIs'} fail until ${one ? 'it is' : 'they are'} reachable.`);
    for (const p of problems) lines.push(`  ${p.deployable.padEnd(8)} ${p.upstream} at ${p.url}: ${p.reason}`);
    lines.push(
      upstreams
        ? '  These are the demo stand-ins; their output above says why they do not answer.'
        : '  Offline, or behind a firewall? Stop with Ctrl-C and run `npm start -- --demo`: it starts local stand-ins for every upstream.',
    );
    lines.push('');
  }
  // The token itself stays out of the scrollback when a file holds it: commands read the file.
  const bearer = stack.admin.file ? `$(cat ${stack.admin.file})` : stack.admin.token;
  lines.push(
    `  gateway   ${gw}   (API docs: ${gw}/docs)`,
    `  burger    ${stack.urls.burger}   token ${stack.urls.token}   logs ${stack.urls.logs}   (internal: they need the proxy secret)`,
    `  store     ${store}`,
    stack.admin.file
      ? `  admin     token in ${stack.admin.file} (mode 0600, kept across restarts; \`pnpm tollgate admin-token rotate\` replaces it)`
      : `  admin     ADMIN_TOKEN=${stack.admin.token}`,
    `  console   ${gw}/admin/ (sign in with the admin token)`,
    `  metrics   need the admin token: curl -s ${gw}/metrics -H "authorization: Bearer ${bearer}"`,
    // The gateway reads SMTP_URL from this environment (concurrently passes it on).
    `  mail      ${process.env.SMTP_URL ? 'sent through SMTP_URL' : 'no SMTP_URL: each mail is printed in this window ("mail to <address>"), a sign-in code on a line of its own'}`,
    '',
    'Get a key:',
    `  in a browser: ${gw}/portal/ (sign in with your email address and the code mailed to it)`,
    `  or by JSON: curl -s -X POST ${gw}/dashboard/v1/signup -H 'content-type: application/json' -d '{"email":"you@example.com"}'`,
    `  then, with the mailed code: curl -s -X POST ${gw}/dashboard/v1/signup/verify -H 'content-type: application/json' -d '{"email":"you@example.com","code":"<code>"}'`,
    `  curl -s -X PUT ${gw}/dashboard/v1/subscriptions/burger -H 'x-tollgate-key: <key>' -H 'content-type: application/json' -d '{"plan":"free"}'`,
    `  or, as the operator: curl -s -X POST ${gw}/admin/v1/keys -H "authorization: Bearer ${bearer}" -H 'content-type: application/json' -d '{"owner":"me","subscriptions":{"burger":"free"}}'`,
  );
  if (demoKey && upstreams) {
    const { address, fromBlock, toBlock } = upstreams.erc20;
    lines.push(
      '',
      `Demo key (pro plan on all three APIs; the same on every --demo start while the store keeps it): ${demoKey}`,
      '  The demo serves the logs API on ethereum only (a local anvil chain holding the demo token TGD); the other',
      '  13 chains use their public RPCs, which need the internet (offline, calls on them answer 502).',
      `  curl -s '${gw}/burger/v1/index?base=eur&sort=valuation' -H 'x-tollgate-key: ${demoKey}'`,
      `  curl -s '${gw}/token/v1/price?tokens=ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,coingecko:ethereum' -H 'x-tollgate-key: ${demoKey}'`,
      `  curl -s '${gw}/logs/v1/transfers?chain=ethereum&token=${address}&from_block=${fromBlock}&to_block=${toBlock}' -H 'x-tollgate-key: ${demoKey}'`,
      `  To watch this key's calls on the Usage page, sign in at ${gw}/portal/ as ${DEMO_EMAIL}: the code is printed here.`,
      '',
      `Webhooks (demo): this gateway accepts endpoints on this machine. In another terminal, \`pnpm webhooks:listen\` prints and verifies`,
      `  what it receives at http://127.0.0.1:9999/: add that URL on ${gw}/portal/webhooks (gateway/examples/webhook-receiver).`,
    );
  }
  if (stripeLocalUrl) {
    lines.push(
      '',
      `Card payments (demo): paid plans are paid through stripe-local at ${stripeLocalUrl}, a local stand-in for Stripe; nothing is charged.`,
      `  take one at ${gw}/portal/subscriptions (sign in first); invoices and the card at ${gw}/portal/billing`,
      '  test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 is saved but every charge fails (a failed renewal);',
      '              4000 0000 0000 9995 is declined (insufficient funds); any future expiry such as 12 / 34, any CVC',
    );
  }
  if (problems.length > 0 && !upstreams) lines.push('', `Unreachable: ${problems.map((p) => p.deployable).join(', ')}. Offline? npm start -- --demo`);
  if (!requestLogs) lines.push('', 'Request logs are off in the demo (errors still show): npm start -- --demo --verbose prints a line per request.');
  lines.push('', 'Ctrl-C stops everything.', '');
  return lines.join('\n');
}

/** Prints {@link bannerText}. */
export function printBanner(input: BannerInput): void {
  console.log(bannerText(input));
}
