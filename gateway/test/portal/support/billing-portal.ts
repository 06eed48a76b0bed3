import Stripe from 'stripe';
import { freePort } from '@tollgate/envelope/test/processes';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal } from '@tollgate/stripe-local';
import { runGatewayScript } from '../../support/gateway-process';
import { startPortal } from './portal-fixture';
import type { Portal } from './portal-fixture';

/** A portal whose gateway takes cards through stripe-local, as an operator sets it up: sync, then start. */
export interface BillingPortal {
  portal: Portal;
  local: StripeLocal;
  /** The real SDK pointed at stripe-local, for the test's own moves (test clocks). */
  stripe: Stripe;
  /** The test clock of the customer with this email, advanced past `iso`, after which every webhook has been answered. */
  advanceTo(email: string, unixSeconds: number): Promise<void>;
  /** The customer's test clock time now (Unix s). */
  clockTime(email: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * stripe-local in this process; `tollgate billing sync` run through the CLI against it (its
 * catalogue and webhook endpoint at the gateway's address, its secret read from the output); then
 * the gateway process on that address with the STRIPE_* variables and test clocks per customer.
 */
export async function startBillingPortal(env: Record<string, string> = {}): Promise<BillingPortal> {
  const local = createStripeLocal({ webhookRetryMs: 50, accountName: 'Tollgate' });
  const stripeUrl = await local.listen(0);
  const port = await freePort();
  const billingEnv = {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    STRIPE_SECRET_KEY: 'sk_test_tollgate_portal',
    STRIPE_API_BASE: stripeUrl,
    SUPPORT_EMAIL: 'billing@tollgate.test',
  };
  const sync = await runGatewayScript('src/cli.ts', ['billing', 'sync', '--json'], billingEnv);
  if (sync.code !== 0) throw new Error(`billing sync failed: ${sync.stderr}`);
  const secret = (JSON.parse(sync.stdout) as { webhook: { secret?: string } }).webhook.secret;
  if (!secret) throw new Error(`billing sync printed no webhook secret: ${sync.stdout}`);
  const portal = await startPortal({ ...billingEnv, PORT: String(port), STRIPE_WEBHOOK_SECRET: secret, STRIPE_TEST_CLOCKS: 'true', ...env });
  const { hostname, port: stripePort } = new URL(stripeUrl);
  const stripe = new Stripe('sk_test_tollgate_portal', { host: hostname, port: Number(stripePort), protocol: 'http', maxNetworkRetries: 0 });
  const clockOf = async (email: string): Promise<string> => {
    const customers = await stripe.customers.list({ email, limit: 10 });
    const clock = customers.data.find((c) => c.test_clock)?.test_clock;
    if (!clock) throw new Error(`no customer of ${email} on a test clock`);
    return typeof clock === 'string' ? clock : clock.id;
  };
  return {
    portal,
    local,
    stripe,
    async clockTime(email) {
      return (await stripe.testHelpers.testClocks.retrieve(await clockOf(email))).frozen_time;
    },
    async advanceTo(email, unixSeconds) {
      await stripe.testHelpers.testClocks.advance(await clockOf(email), { frozen_time: unixSeconds });
      await local.settle();
    },
    async close() {
      await portal.close();
      await local.close();
    },
  };
}
