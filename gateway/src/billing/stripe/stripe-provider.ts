import type Stripe from 'stripe';
import type { BillingConfig } from '../../config';
import type { PlanTable } from '../../domain/plans';
import { firstPeriodEnd } from '../../domain/billing-period';
import { WebhookSignatureError } from '../billing-provider';
import type { BillingProvider, ProviderInvoice } from '../billing-provider';
import { missingPrices, syncCatalogue } from './stripe-catalogue';
import { createStripeChanges, taxOf } from './stripe-changes';
import { createStripeSdk, isMissing, providerError, stripeCall } from './stripe-client';
import { SUBSCRIPTION_EXPAND, createSubscriptionReader } from './stripe-subscriptions';
import { idOf, verifyWebhook } from './stripe-webhook';

function invoiceOf(invoice: Stripe.Invoice): ProviderInvoice {
  return {
    id: invoice.id ?? '',
    created_at: new Date(invoice.created * 1000).toISOString(),
    amount: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency.toUpperCase(),
    status: (invoice.status ?? 'draft') as ProviderInvoice['status'],
    hosted_url: invoice.hosted_invoice_url ?? null,
    pdf_url: invoice.invoice_pdf ?? null,
    description: invoice.lines.data.map((line) => line.description).filter(Boolean).join('; '),
    tax: taxOf(invoice),
  };
}

/** Billing through Stripe's API with the official SDK (`STRIPE_API_BASE` points it at a Stripe-compatible server). */
export function createStripeProvider(config: BillingConfig, plans: PlanTable, clock: () => number, sdk: Stripe = createStripeSdk(config)): BillingProvider {
  const stripe = sdk;
  const reader = createSubscriptionReader(stripe, clock);
  const changes = createStripeChanges(stripe, plans, reader, config.automaticTax);
  return {
    syncCatalogue: (table, webhookUrl) => syncCatalogue(stripe, table, webhookUrl),
    missingPrices: (table) => missingPrices(stripe, table),
    async createCustomer({ accountId, email, name, currency }) {
      // Test mode may put each customer on a clock of its own, so renewals and failures can be rehearsed.
      const clockId = config.testClocks ? (await stripeCall(() => stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(clock() / 1000), name: `Tollgate ${accountId}` }))).id : undefined;
      const customer = await stripeCall(() =>
        stripe.customers.create({
          ...(email ? { email } : {}),
          name: `${name || email || accountId} (${currency})`,
          metadata: { tollgate_account: accountId, tollgate_currency: currency },
          ...(clockId ? { test_clock: clockId } : {}),
        }),
      );
      return customer.id;
    },
    async deleteCustomer(customerId) {
      await stripeCall(() => stripe.customers.del(customerId));
    },
    async createCheckout({ customerId, accountId, api, plan, successUrl, cancelUrl }) {
      const price = await changes.priceOf(api, plan);
      // The first period ends at the start of the next UTC month (charged in proportion), so every
      // later one is a calendar month, as quota months are.
      const endMs = firstPeriodEnd(await reader.customerNow(customerId));
      const anchor = endMs === undefined ? undefined : Math.floor(endMs / 1000);
      const metadata = { tollgate_account: accountId, tollgate_api: api, tollgate_plan: plan };
      const session = await stripeCall(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: accountId,
          metadata,
          line_items: [{ price, quantity: 1 }],
          subscription_data: { metadata, proration_behavior: 'create_prorations', ...(anchor ? { billing_cycle_anchor: anchor } : {}) },
          // Stripe Tax: the billing address (and a business's VAT number) decides the tax; saved on the customer for later invoices.
          ...(config.automaticTax ? { automatic_tax: { enabled: true }, billing_address_collection: 'required' as const, tax_id_collection: { enabled: true }, customer_update: { address: 'auto' as const, name: 'auto' as const } } : {}),
          success_url: successUrl,
          cancel_url: cancelUrl,
        }),
      );
      return { id: session.id, url: session.url ?? '' };
    },
    async readCheckout(sessionId) {
      try {
        const session = await stripeCall(() => stripe.checkout.sessions.retrieve(sessionId));
        return { id: session.id, customerId: idOf(session.customer) ?? null, accountId: session.client_reference_id, subscriptionId: idOf(session.subscription) ?? null, complete: session.status === 'complete' };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async closeCheckout(sessionId) {
      for (let tries = 0; ; tries++) {
        let session: Stripe.Checkout.Session;
        try {
          session = await stripeCall(() => stripe.checkout.sessions.retrieve(sessionId));
        } catch (err) {
          if (isMissing(err)) return { state: 'closed' };
          throw err;
        }
        if (session.status === 'complete') return { state: 'paid', subscriptionId: idOf(session.subscription) ?? null };
        if (session.status !== 'open') return { state: 'closed' };
        try {
          await stripeCall(() => stripe.checkout.sessions.expire(sessionId));
          return { state: 'closed' };
        } catch (err) {
          // Paid (or expired) between the read and the expiry: read it again, once.
          if (tries > 0 || (err as { type?: string }).type !== 'StripeInvalidRequestError') throw err;
        }
      }
    },
    readSubscription: (id) => reader.read(id),
    async *listSubscriptions() {
      try {
        for await (const subscription of stripe.subscriptions.list({ limit: 100, expand: SUBSCRIPTION_EXPAND.map((path) => `data.${path}`) })) {
          const paid = await reader.translate(subscription);
          if (paid) yield paid;
        }
      } catch (err) {
        throw providerError(err);
      }
    },
    previewChange: (id, api, plan, now) => changes.previewChange(id, api, plan, now),
    changePlanNow: (id, api, plan, prorationDate) => changes.changePlanNow(id, api, plan, prorationDate),
    changePlanAtPeriodEnd: (id, api, plan) => changes.changePlanAtPeriodEnd(id, api, plan),
    cancelAtPeriodEnd: (id) => changes.cancelAtPeriodEnd(id),
    cancelNow: (id) => changes.cancelNow(id),
    keepCurrentPlan: (id) => changes.keepCurrentPlan(id),
    async listInvoices(customerId, limit) {
      const page = await stripeCall(() => stripe.invoices.list({ customer: customerId, limit }));
      return page.data.map(invoiceOf);
    },
    async listPayments(customerId, limit) {
      const page = await stripeCall(() => stripe.charges.list({ customer: customerId, limit }));
      return page.data
        .filter((charge) => charge.status === 'succeeded')
        .map((charge) => {
          const card = charge.payment_method_details?.card;
          return {
            id: charge.id,
            created_at: new Date(charge.created * 1000).toISOString(),
            amount: charge.amount - charge.amount_refunded,
            currency: charge.currency.toUpperCase(),
            card: card ? `${card.brand?.toUpperCase() ?? 'CARD'} •••• ${card.last4}` : null,
            receipt_url: charge.receipt_url ?? null,
          };
        });
    },
    async createPortalSession(customerId, returnUrl) {
      return (await stripeCall(() => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }))).url;
    },
    parseWebhook(rawBody, signature) {
      if (!config.webhookSecret) throw new WebhookSignatureError('webhooks are not accepted: STRIPE_WEBHOOK_SECRET is not set on this gateway');
      if (!signature) throw new WebhookSignatureError('the Stripe-Signature header is missing');
      // Stripe dates its signatures by the wall clock, so they are checked against this machine's, not the injected clock.
      return verifyWebhook(stripe, config.webhookSecret, rawBody, signature, Date.now());
    },
  };
}
