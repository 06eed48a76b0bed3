/**
 * Prints and verifies the webhooks a Tollgate gateway sends, on this machine (README.md beside this
 * file). From the repository root:
 *
 *   pnpm webhooks:listen                         # http://127.0.0.1:9999/, deliveries printed unverified
 *   pnpm webhooks:listen --secret whsec_…        # and each signature checked with the endpoint's secret
 *   pnpm webhooks:listen --port 9000 --secret whsec_…   (WEBHOOK_SECRET and PORT work too)
 */
import { startWebhookReceiver } from './receive-webhooks';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const port = Number(option('port') ?? process.env.PORT ?? 9999);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a port number, not ${option('port') ?? process.env.PORT}`);
  const secret = option('secret') ?? process.env.WEBHOOK_SECRET;
  if (secret !== undefined && !/^whsec_\S+$/.test(secret)) throw new Error('--secret must be the endpoint’s signing secret, whsec_…');
  const receiver = await startWebhookReceiver({ port, secret, print: (line) => console.log(line) });
  console.log(`Receiving webhooks at ${receiver.url}`);
  console.log(`  Add it on the portal's Webhooks page (a gateway started with WEBHOOKS_ALLOW_PRIVATE=true, as npm start -- --demo is, accepts a local http:// URL),`);
  console.log(secret ? '  then send a test event there. Signatures are checked with the secret given.' : '  then restart this with --secret and the secret shown there, to check signatures; send a test event there.');
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`webhook receiver: ${(err as Error).message}`);
  process.exit(1);
});
