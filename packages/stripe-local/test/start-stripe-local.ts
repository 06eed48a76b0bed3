import Stripe from 'stripe';
import { createStripeLocal } from '../src/create-stripe-local';
import type { StripeLocal } from '../src/create-stripe-local';
import type { StripeLocalOptions } from '../src/stripe-local-options';

/** A stripe-local server on a free port and the real SDK pointed at it. */
export interface Running {
  server: StripeLocal;
  stripe: Stripe;
  url: string;
}

/** Starts one; the caller closes `server` (see {@link useStripeLocal}). */
export async function startStripeLocal(options: StripeLocalOptions = {}): Promise<Running> {
  const server = createStripeLocal({ webhookRetryMs: 5, ...options });
  const url = await server.listen(0);
  const { hostname, port } = new URL(url);
  const stripe = new Stripe('sk_test_stripe_local', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
  return { server, stripe, url };
}

/** One server for the suite's tests, closed after them. */
export function useStripeLocal(options: StripeLocalOptions = {}): () => Running {
  let running: Running | undefined;
  beforeAll(async () => {
    running = await startStripeLocal(options);
  });
  afterAll(async () => {
    await running?.server.close();
  });
  return () => {
    if (!running) throw new Error('the server starts in beforeAll');
    return running;
  };
}
