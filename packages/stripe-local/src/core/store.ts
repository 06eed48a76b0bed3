import type { TestCard } from '../billing/test-cards';
import type { Charge } from '../objects/charge';
import type { CheckoutSession, SessionPlan } from '../objects/checkout-session';
import type { Customer } from '../objects/customer';
import type { Invoice, InvoiceLine } from '../objects/invoice';
import type { PaymentMethod } from '../objects/payment-method';
import type { PortalSession } from '../objects/portal-session';
import type { Price } from '../objects/price';
import type { Product } from '../objects/product';
import type { StripeEvent } from '../objects/stripe-event';
import type { Subscription } from '../objects/subscription';
import type { SubscriptionSchedule } from '../objects/subscription-schedule';
import type { TestClock } from '../objects/test-clock';
import type { WebhookEndpoint } from '../objects/webhook-endpoint';
import { Collection } from './collection';

/** Every object stripe-local holds, and what it keeps beside them that Stripe never shows. */
export interface Store {
  products: Collection<Product>;
  prices: Collection<Price>;
  customers: Collection<Customer>;
  paymentMethods: Collection<PaymentMethod>;
  subscriptions: Collection<Subscription>;
  schedules: Collection<SubscriptionSchedule>;
  invoices: Collection<Invoice>;
  charges: Collection<Charge>;
  checkoutSessions: Collection<CheckoutSession>;
  portalSessions: Collection<PortalSession>;
  webhookEndpoints: Collection<WebhookEndpoint>;
  events: Collection<StripeEvent>;
  testClocks: Collection<TestClock>;
  /** The test card behind each payment method: what attaching and charging it do. */
  cards: Map<string, TestCard>;
  /** A checkout session's lines and subscription settings. */
  sessionPlans: Map<string, SessionPlan>;
  /** Prorations waiting for a subscription's next invoice. */
  pendingLines: Map<string, InvoiceLine[]>;
  webhookSecrets: Map<string, string>;
  /** How many automatic (retry-schedule) attempts an invoice has had. */
  automaticAttempts: Map<string, number>;
  /** The invoice each charge paid (basil's charges no longer name it): what its receipt lists. */
  chargeInvoices: Map<string, string>;
  /** A customer's tax IDs (Stripe's `customer.tax_ids`), from Checkout's tax ID collection. */
  customerTaxIds: Map<string, { type: string; value: string }[]>;
}

/** An empty store. */
export function createStore(): Store {
  return {
    products: new Collection('product'),
    prices: new Collection('price'),
    customers: new Collection('customer'),
    paymentMethods: new Collection('PaymentMethod'),
    subscriptions: new Collection('subscription'),
    schedules: new Collection('subscription schedule'),
    invoices: new Collection('invoice'),
    charges: new Collection('charge'),
    checkoutSessions: new Collection('checkout.session'),
    portalSessions: new Collection('billing_portal.session'),
    webhookEndpoints: new Collection('webhook endpoint'),
    events: new Collection('event'),
    testClocks: new Collection('test clock'),
    cards: new Map(),
    sessionPlans: new Map(),
    pendingLines: new Map(),
    webhookSecrets: new Map(),
    automaticAttempts: new Map(),
    chargeInvoices: new Map(),
    customerTaxIds: new Map(),
  };
}

/** The stored object an id names, by its prefix; what `expand[]` follows. */
export function findById(store: Store, id: string): { id: string; created: number } | undefined {
  const byPrefix: [string, Collection<{ id: string; created: number }>][] = [
    ['sub_sched_', store.schedules],
    ['cus_', store.customers],
    ['prod_', store.products],
    ['price_', store.prices],
    ['pm_', store.paymentMethods],
    ['sub_', store.subscriptions],
    ['in_', store.invoices],
    ['ch_', store.charges],
    ['cs_', store.checkoutSessions],
    ['bps_', store.portalSessions],
    ['we_', store.webhookEndpoints],
    ['evt_', store.events],
    ['clock_', store.testClocks],
  ];
  const found = byPrefix.find(([prefix]) => id.startsWith(prefix));
  // Products may be created with an id of the caller's choosing.
  return found ? found[1].get(id) : store.products.get(id);
}
