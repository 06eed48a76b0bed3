/**
 * Runs stripe-local on its own: `PORT` (12111), `HOST` (127.0.0.1), `STRIPE_LOCAL_PUBLIC_URL`
 * (the hosted pages' base URL when it differs), `STRIPE_LOCAL_RETRIES_EXHAUSTED` (unpaid |
 * canceled), `STRIPE_LOCAL_STATE_FILE` (keeps every object across restarts), `STRIPE_LOCAL_WEBHOOK_SECRET`
 * (the signing secret of every webhook endpoint), `STRIPE_LOCAL_ACCOUNT_NAME` (the business name
 * the hosted pages show, as Stripe shows the one set in its dashboard), `STRIPE_LOCAL_RECEIPTS=log`
 * (receipts on, each printed to stderr). Logs one line with the URL, then runs until SIGINT or SIGTERM.
 */
import { createStripeLocal } from './create-stripe-local';
import type { ReceiptMail } from './objects/charge';

// Due renewals and retries also run on every request; this catches them up when none come.
const TICK_MS = 30_000;

function readPort(text: string | undefined): number {
  const port = Number(text ?? '12111');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a port number (0-65535), not ${JSON.stringify(text)}`);
    process.exit(1);
  }
  return port;
}

async function main(): Promise<void> {
  const exhausted = process.env.STRIPE_LOCAL_RETRIES_EXHAUSTED ?? 'unpaid';
  if (exhausted !== 'unpaid' && exhausted !== 'canceled') {
    console.error('STRIPE_LOCAL_RETRIES_EXHAUSTED must be unpaid or canceled');
    process.exit(1);
  }
  const stripe = createStripeLocal({
    publicUrl: process.env.STRIPE_LOCAL_PUBLIC_URL || undefined,
    retriesExhausted: exhausted,
    stateFile: process.env.STRIPE_LOCAL_STATE_FILE || undefined,
    webhookSecret: process.env.STRIPE_LOCAL_WEBHOOK_SECRET || undefined,
    accountName: process.env.STRIPE_LOCAL_ACCOUNT_NAME || undefined,
    // Receipts on: printed to stderr, as the customer would receive them.
    ...(process.env.STRIPE_LOCAL_RECEIPTS === 'log' ? { mailReceipt: (mail: ReceiptMail) => console.error(`receipt mailed to ${mail.to}: ${mail.subject}\n${mail.text}`) } : {}),
    log: (line) => console.error(line),
  });
  const url = await stripe.listen(readPort(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  console.log(`stripe-local listening on ${url} (API at ${url}/v1; any sk_test_… key)`);
  const ticker = setInterval(() => {
    try {
      stripe.tick();
    } catch (error) {
      console.error(`stripe-local: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }, TICK_MS);
  const stop = () => {
    clearInterval(ticker);
    void stripe.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
