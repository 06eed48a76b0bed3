import type { QuerySchema } from '@tollgate/envelope/core';
import { closed } from '../http/schemas';
import { PROVIDER_STATUSES } from '../domain/billing-access';
import { ACCOUNT_ID_PATTERN } from '../domain/api-key';

const time = { type: 'string', format: 'date-time' };
const maybeTime = { type: ['string', 'null'], format: 'date-time' };
const currency = { type: 'string', pattern: '^[A-Z]{3}$' };
const text = { type: 'string' };

/** One paid subscription: the plan, its price, the provider's status and what it gives now. */
export const BILLED_SUBSCRIPTION_SCHEMA = closed({
  api: text,
  subscription_id: text,
  customer_id: text,
  plan: text,
  price_id: text,
  amount: { type: 'integer', description: 'Monthly price in the smallest currency unit' },
  currency,
  status: { type: 'string', enum: [...PROVIDER_STATUSES], description: 'As Stripe has it' },
  state: { type: 'string', enum: ['processing', 'active', 'grace', 'lapsed', 'ended'], description: 'What it gives now: grace = a payment failed and calls are served until grace_until; lapsed = calls get 402 until paid' },
  current_period_end: { ...maybeTime, description: 'The next renewal (or the end, with cancel_at_period_end)' },
  cancel_at_period_end: { type: 'boolean' },
  next_plan: { type: ['string', 'null'], description: 'A cheaper plan taking over at current_period_end' },
  grace_until: maybeTime,
  test_clock: { type: ['string', 'null'] },
  updated_at: time,
  withdrawn: { type: 'boolean', description: 'Its API or plan left the catalogue: it ends at current_period_end and is not charged again' },
});

const INVOICE_SCHEMA = closed({
  id: { type: 'string' },
  created_at: { ...time, description: 'When it was issued' },
  amount: { type: 'integer', description: 'Due while open, paid once paid (smallest unit)' },
  currency,
  status: { type: 'string', enum: ['draft', 'open', 'paid', 'uncollectible', 'void'] },
  hosted_url: { type: ['string', 'null'], description: 'Stripe’s page of the invoice (pay it there while open)' },
  pdf_url: { type: ['string', 'null'] },
  description: { type: 'string' },
  tax: { type: 'integer', description: 'The tax within amount (Stripe Tax, STRIPE_AUTOMATIC_TAX; 0 without it)' },
  customer_currency: currency,
});

/** What the portal reads on every page: whether cards are taken here, and the running paid subscriptions (from the store). */
export const BILLING_STATUS_SCHEMA = closed(
  {
    card_payments: { type: 'boolean', description: 'Whether paid plans can be taken by card on this server' },
    support_email: { type: 'string', description: 'Whom to ask (SUPPORT_EMAIL)' },
    subscriptions: { type: 'array', items: BILLED_SUBSCRIPTION_SCHEMA },
  },
  ['support_email'],
);

/** The billing page: subscriptions, invoices (null when Stripe did not answer) and the currencies the account has a card customer in. */
export const BILLING_PAGE_SCHEMA = closed({
  card_payments: { const: true },
  subscriptions: { type: 'array', items: BILLED_SUBSCRIPTION_SCHEMA },
  invoices: { type: ['array', 'null'], items: INVOICE_SCHEMA },
  payments: {
    type: ['array', 'null'],
    description: 'Card payments received, newest first, each with Stripe’s receipt (null when Stripe did not answer)',
    items: closed({ id: text, created_at: time, amount: { type: 'integer', description: 'Paid (smallest unit), less any refund' }, currency, card: { type: ['string', 'null'], description: 'VISA •••• 4242' }, receipt_url: { type: ['string', 'null'], description: 'Stripe’s receipt page' } }),
  },
  currencies: { type: 'array', items: currency, description: 'The currencies with a card customer the provider has: one "Manage card and invoices" each' },
  missing_customers: { type: 'array', items: currency, description: 'The currencies whose card customer the provider no longer has (deleted there, or a stand-in started empty): their invoices and card cannot be shown, the plans stand' },
});

export const CHECKOUT_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['api', 'plan'],
  properties: { api: { type: 'string', minLength: 1, maxLength: 64, description: 'an API name' }, plan: { type: 'string', minLength: 1, maxLength: 64, description: 'a paid plan name' } },
};

export const CHANGE_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: {
    plan: { type: 'string', minLength: 1, maxLength: 64, description: 'a plan name' },
    proration_date: { type: 'integer', minimum: 0, maximum: 253402300799, description: 'the proration_date of the preview the person confirmed (GET …/preview): the charge is exactly its due_now; refused (409 preview_stale) once more than an hour old' },
  },
};

export const PREVIEW_QUERY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: { plan: { type: 'string', minLength: 1, maxLength: 64, description: 'the plan to take or change to' } },
};

/** What taking or changing to a plan costs, before anything is charged. */
export const PREVIEW_SCHEMA = closed({
  api: text,
  plan: text,
  from_plan: { type: ['string', 'null'], description: 'The plan paid by card now; null when the plan would be taken at Checkout' },
  when: { type: 'string', enum: ['checkout', 'now', 'period_end'], description: 'checkout: paid at Stripe Checkout; now: charged at once on confirming; period_end: nothing today, the plan changes when the period ends' },
  currency,
  due_now: { type: 'integer', description: 'Charged today, smallest unit, tax included' },
  lines: { type: 'array', items: closed({ description: text, amount: { type: 'integer' } }), description: 'What makes up due_now, as the invoice says it' },
  tax_now: { type: 'integer', description: 'The tax within due_now' },
  recurring: { type: 'integer', description: 'What each later month costs on the plan, smallest unit' },
  recurring_from: { ...time, description: 'When the first of those months starts' },
  proration_date: { type: ['integer', 'null'], description: 'Send it with the change to be charged exactly due_now (an hour at most)' },
});

export const PORTAL_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'a currency code such as EUR (the card customer to manage)' } },
};

export const REDIRECT_SCHEMA = closed({ url: { type: 'string', description: 'Where to send the browser (Stripe’s page)' }, session_id: { type: 'string' } }, ['session_id']);

export const CHECKOUT_STATE_SCHEMA = closed({ subscription: { anyOf: [BILLED_SUBSCRIPTION_SCHEMA, { type: 'null' }], description: 'null while the payment is processing' } });

/** What operators see of an account's billing (and the console will show). */
export const ACCOUNT_BILLING_SCHEMA = closed({
  account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
  customers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Stripe customer per currency' },
  subscriptions: { type: 'array', items: BILLED_SUBSCRIPTION_SCHEMA },
  comp: {
    type: 'array',
    description: 'Paid plans granted by an operator, not billed',
    items: closed({ api: { type: 'string' }, plan: { type: 'string' }, price: { type: 'integer' }, currency }),
  },
});

export const SUMMARY_SCHEMA = closed({
  mrr: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Monthly recurring revenue per currency, smallest unit (active, trialing and past-due subscriptions)' },
  subscriptions: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Paid subscriptions by Stripe status' },
});

const repair = closed({ plan: { type: 'string' }, status: { type: 'string' }, state: { type: 'string' } });
export const RECONCILIATION_SCHEMA = closed({
  checked: { type: 'integer' },
  changed: { type: 'array', items: closed({ account: { type: 'string' }, api: { type: 'string' }, subscription: { type: 'string' }, from: { anyOf: [repair, { type: 'null' }] }, to: repair }) },
  unknown_customers: { type: 'array', items: closed({ customer: { type: 'string' }, subscription: { type: 'string' } }) },
});
