import type Stripe from 'stripe';
import type { PlanTable } from '../../domain/plans';
import type { CatalogueSync } from '../billing-provider';
import { HANDLED_EVENTS } from '../webhook-intake';
import { isMissing, stripeCall } from './stripe-client';

/** The events the gateway's endpoint is sent (POST /billing/webhook): those it handles. */
export const WEBHOOK_EVENTS = [...HANDLED_EVENTS] as Stripe.WebhookEndpointCreateParams.EnabledEvent[];

/** The lookup key of a plan's current price: it moves to a new price when the amount changes. */
export const lookupKey = (api: string, plan: string): string => `tollgate:${api}:${plan}`;
/** Tollgate's own product id per API. */
export const productId = (api: string): string => `tollgate_${api}`;

/** A paid plan as the catalogue prices it. */
export interface PaidPlan {
  api: string;
  plan: string;
  amount: number;
  currency: string;
}

/** Every plan with a price above 0, in table order. */
export function paidPlans(plans: PlanTable): PaidPlan[] {
  return Object.entries(plans).flatMap(([api, apiPlans]) =>
    Object.entries(apiPlans.plans)
      .filter(([, p]) => p.price > 0)
      .map(([plan, p]) => ({ api, plan, amount: p.price, currency: p.currency })),
  );
}

/** Whether a price is the one a plan needs now: active, monthly, the plan's amount and currency. */
const current = (price: Stripe.Price | undefined, paid: PaidPlan): boolean =>
  price !== undefined && price.active && price.unit_amount === paid.amount && price.currency === paid.currency.toLowerCase() && price.recurring?.interval === 'month';

/** The prices holding the plans' lookup keys, by lookup key (10 keys a request: Stripe's limit). */
async function pricesByLookupKey(stripe: Stripe, paid: PaidPlan[]): Promise<Map<string, Stripe.Price>> {
  const found = new Map<string, Stripe.Price>();
  for (let i = 0; i < paid.length; i += 10) {
    const keys = paid.slice(i, i + 10).map((p) => lookupKey(p.api, p.plan));
    const page = await stripeCall(() => stripe.prices.list({ lookup_keys: keys, limit: 100 }));
    for (const price of page.data) if (price.lookup_key) found.set(price.lookup_key, price);
  }
  return found;
}

/** The current price of a plan, or undefined when the catalogue lacks it (sync not run, or the amount changed since). */
export async function currentPrice(stripe: Stripe, paid: PaidPlan): Promise<Stripe.Price | undefined> {
  const price = (await pricesByLookupKey(stripe, [paid])).get(lookupKey(paid.api, paid.plan));
  return price && current(price, paid) ? price : undefined;
}

/** `api plan` of each paid plan whose current price is missing. */
export async function missingPrices(stripe: Stripe, plans: PlanTable): Promise<string[]> {
  const paid = paidPlans(plans);
  const found = await pricesByLookupKey(stripe, paid);
  return paid.filter((p) => !current(found.get(lookupKey(p.api, p.plan)), p)).map((p) => `${p.api} ${p.plan}`);
}

/**
 * An API's product name: its title in the catalogue, which Checkout, invoices, receipts and the
 * customer portal show beside the price (the API's name when the table has no title).
 */
export const productName = (api: string, plans: PlanTable): string => plans[api]?.title ?? api;

async function ensureProduct(stripe: Stripe, api: string, name: string): Promise<CatalogueSync['products'][number]> {
  const id = productId(api);
  try {
    const product = await stripeCall(() => stripe.products.retrieve(id));
    if (product.name === name) return { api, id, name, created: false, renamed: false };
    await stripeCall(() => stripe.products.update(id, { name }));
    return { api, id, name, created: false, renamed: true };
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  await stripeCall(() => stripe.products.create({ id, name, metadata: { tollgate_api: api } }));
  return { api, id, name, created: true, renamed: false };
}

async function ensureWebhook(stripe: Stripe, url: string): Promise<CatalogueSync['webhook']> {
  // Called through stripeCall, which turns an auto-pagination failure as any other.
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
    if (endpoint.url !== url) continue;
    const events = new Set(endpoint.enabled_events);
    if (WEBHOOK_EVENTS.some((e) => !events.has(e) && !events.has('*')) || endpoint.status === 'disabled') {
      await stripeCall(() => stripe.webhookEndpoints.update(endpoint.id, { enabled_events: WEBHOOK_EVENTS, disabled: false }));
    }
    return { url, id: endpoint.id, created: false, note: 'the endpoint exists: its signing secret was printed when it was made (delete the endpoint and sync again for a new one)' };
  }
  const endpoint = await stripeCall(() => stripe.webhookEndpoints.create({ url, enabled_events: WEBHOOK_EVENTS, description: 'Tollgate gateway' }));
  return { url, id: endpoint.id, created: true, secret: endpoint.secret ?? '', note: 'set STRIPE_WEBHOOK_SECRET to this secret; it is shown only now' };
}

/**
 * Makes the catalogue match the plan table, idempotently: a product per API with paid plans, named
 * by the API's title (renamed when the title changed), a monthly price per paid plan under its lookup key (a price whose amount or currency changed is
 * replaced: the new one takes the key, the old one is archived, and its subscribers stay on it
 * until moved), and the webhook endpoint.
 */
export async function syncCatalogue(stripe: Stripe, plans: PlanTable, webhookUrl: string): Promise<CatalogueSync> {
  const paid = paidPlans(plans);
  const products = [];
  for (const api of new Set(paid.map((p) => p.api))) products.push(await ensureProduct(stripe, api, productName(api, plans)));
  const found = await pricesByLookupKey(stripe, paid);
  const prices: CatalogueSync['prices'] = [];
  for (const p of paid) {
    const existing = found.get(lookupKey(p.api, p.plan));
    if (existing && current(existing, p)) {
      prices.push({ ...p, id: existing.id, action: 'kept' });
      continue;
    }
    const created = await stripeCall(() =>
      stripe.prices.create({
        product: productId(p.api),
        currency: p.currency.toLowerCase(),
        unit_amount: p.amount,
        recurring: { interval: 'month' },
        lookup_key: lookupKey(p.api, p.plan),
        transfer_lookup_key: existing !== undefined,
        nickname: `${p.api} ${p.plan}`,
        metadata: { tollgate_api: p.api, tollgate_plan: p.plan },
      }),
    );
    if (existing?.active) await stripeCall(() => stripe.prices.update(existing.id, { active: false }));
    prices.push({ ...p, id: created.id, action: existing ? 'replaced' : 'created', ...(existing ? { archived: existing.id } : {}) });
  }
  return { products, prices, webhook: await stripeCall(() => ensureWebhook(stripe, webhookUrl)) };
}
