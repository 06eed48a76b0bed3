import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { ReceiptMail, StripeLocal } from '@tollgate/stripe-local';

/** Card payments for the offline demo: stripe-local in this process, and the gateway's STRIPE_* variables. */
export interface DemoBilling {
  /** STRIPE_SECRET_KEY, STRIPE_API_BASE, STRIPE_WEBHOOK_SECRET and PUBLIC_URL for the gateway. */
  env: Record<string, string>;
  /** The stand-in's address (its hosted Checkout, portal and invoice pages). */
  url: string;
  local: StripeLocal;
  stop: () => Promise<void>;
}

/** The business name Stripe's hosted pages show (set in Stripe's dashboard, Settings → Public details). */
const DEMO_BUSINESS = 'Tollgate';

/** Receipts on, as a Stripe account enables them: the demo prints each one, as a person would receive it. */
const printReceipt = (mail: ReceiptMail): void => console.error(`[stripe-local] receipt mailed to ${mail.to}: ${mail.subject}\n${mail.text.replace(/^/gm, '    ')}`);

// Renewals, retries and expired sessions also run on every request; this catches them up when none come.
const TICK_MS = 30_000;

/** Runs the gateway's CLI (`billing sync`) with `env`; resolves with what it printed, parsed. */
function runSync(root: string, env: Record<string, string>): Promise<{ webhook: { id: string; secret?: string } }> {
  const tsx = require.resolve('tsx', { paths: [root] });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--conditions=development', '--import', tsx, join(root, 'gateway/src/cli.ts'), 'billing', 'sync', '--json'], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`tollgate billing sync failed against stripe-local: ${stderr.trim() || err.message}`));
      else resolve(JSON.parse(stdout) as { webhook: { id: string; secret?: string } });
    });
  });
}

/** Listens where the state file says it listened before, so links it handed out still open; else on a free port, saying why. */
async function listenAgain(local: StripeLocal): Promise<string> {
  if (local.savedPort === null) return local.listen(0);
  try {
    return await local.listen(local.savedPort);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const url = await local.listen(0);
    console.error(`[stack] stripe-local's port ${local.savedPort}, kept from the last --demo, is taken: it listens at ${url} now, and the Checkout, portal and invoice links it gave before no longer open`);
    return url;
  }
}

/**
 * Starts stripe-local (a local stand-in for Stripe: nothing leaves the machine, nothing is
 * charged), runs `tollgate billing sync` against it for a gateway at `gatewayUrl` (the catalogue
 * and the webhook endpoint), and answers the variables the gateway then starts with. With
 * `stateFile` (beside the gateway's store) its customers, subscriptions and invoices, its port and
 * its webhook endpoint outlive a restart, as the store's billing records do.
 */
export async function startDemoBilling(root: string, gatewayUrl: string, stateFile?: string): Promise<DemoBilling> {
  if (stateFile) mkdirSync(dirname(stateFile), { recursive: true });
  const local = createStripeLocal({ accountName: DEMO_BUSINESS, mailReceipt: printReceipt, log: (line) => console.error(`[stripe-local] ${line}`), ...(stateFile ? { stateFile } : {}) });
  const url = await listenAgain(local);
  const ticker = setInterval(() => local.tick(), TICK_MS);
  ticker.unref();
  const stop = async (): Promise<void> => {
    clearInterval(ticker);
    await local.close();
  };
  try {
    const env = { STRIPE_SECRET_KEY: 'sk_test_tollgate_demo', STRIPE_API_BASE: url, PUBLIC_URL: gatewayUrl };
    const synced = await runSync(root, env);
    // Made before (a kept state): the API shows an endpoint's secret only once, stripe-local keeps it.
    const secret = synced.webhook.secret ?? local.webhookSecretOf(synced.webhook.id);
    if (!secret) throw new Error(`stripe-local has no signing secret for the webhook endpoint ${synced.webhook.id}`);
    return { env: { ...env, STRIPE_WEBHOOK_SECRET: secret }, url, local, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
