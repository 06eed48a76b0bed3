import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import { formatDate, formatMoney } from '../core/format-money';
import type { Charge, ReceiptMail } from '../objects/charge';
import type { Invoice } from '../objects/invoice';

/**
 * Records the charge that paid an invoice with a card (`charge.succeeded`), with its receipt page,
 * and mails the receipt when receipts are on (`mailReceipt`), as Stripe does for an account that
 * enabled "Successful payments" mails.
 */
export function recordCharge(ctx: Context, invoice: Invoice, paymentMethodId: string, moment: Moment): Charge {
  const paymentMethod = ctx.store.paymentMethods.require(paymentMethodId);
  const customer = ctx.store.customers.require(invoice.customer);
  const id = createId('ch_');
  const { card } = paymentMethod;
  const charge: Charge = {
    id,
    object: 'charge',
    amount: invoice.amount_paid,
    amount_captured: invoice.amount_paid,
    amount_refunded: 0,
    billing_details: { address: null, email: paymentMethod.billing_details.email, name: paymentMethod.billing_details.name, phone: null },
    captured: true,
    created: moment.at,
    currency: invoice.currency,
    customer: customer.id,
    description: invoice.billing_reason === 'subscription_create' ? 'Subscription creation' : invoice.billing_reason === 'subscription_update' ? 'Subscription update' : 'Subscription cycle',
    disputed: false,
    livemode: false,
    metadata: {},
    outcome: { network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' },
    paid: true,
    payment_intent: null,
    payment_method: paymentMethod.id,
    payment_method_details: { type: 'card', card: { brand: card.brand, exp_month: card.exp_month, exp_year: card.exp_year, funding: card.funding, last4: card.last4, network: card.brand } },
    receipt_email: customer.email,
    receipt_number: null,
    receipt_url: `${ctx.baseUrl()}/receipts/${id}`,
    refunded: false,
    status: 'succeeded',
  };
  ctx.store.charges.add(charge);
  ctx.store.chargeInvoices.set(id, invoice.id);
  ctx.emit('charge.succeeded', charge, moment);
  const mail = ctx.settings.mailReceipt;
  if (mail && charge.receipt_email) {
    charge.receipt_number = `${String(1000 + (ctx.store.charges.all().length % 9000))}-${String(moment.at % 10_000).padStart(4, '0')}`;
    const receipt = receiptMail(ctx, charge, invoice);
    void Promise.resolve()
      .then(() => mail(receipt))
      .catch((error: unknown) => ctx.settings.log(`stripe-local: the receipt for ${charge.id} could not be mailed: ${error instanceof Error ? error.message : String(error)}`));
  }
  return charge;
}

/** The receipt mail of a charge: what was paid, when, with which card, for what, and its page. */
export function receiptMail(ctx: Context, charge: Charge, invoice: Invoice | undefined): ReceiptMail {
  const business = ctx.settings.accountName;
  const card = charge.payment_method_details.card;
  return {
    to: charge.receipt_email ?? '',
    charge: charge.id,
    subject: `Your receipt from ${business} #${charge.receipt_number ?? charge.id}`,
    text: [
      `Receipt from ${business}`,
      '',
      `Amount paid: ${formatMoney(charge.amount, charge.currency)}`,
      `Date paid: ${formatDate(charge.created)}`,
      `Payment method: ${card.brand.toUpperCase()} – ${card.last4}`,
      '',
      ...(invoice ? invoice.lines.data.map((line) => `${line.description}: ${formatMoney(line.amount, line.currency)}`) : []),
      ...(invoice && invoice.total_taxes.length ? [`Tax: ${formatMoney(invoice.total_taxes.reduce((sum, tax) => sum + tax.amount, 0), invoice.currency)}`] : []),
      `Amount charged: ${formatMoney(charge.amount, charge.currency)}`,
      '',
      `View your receipt: ${charge.receipt_url}`,
      ...(invoice?.hosted_invoice_url ? [`Invoice ${invoice.number ?? invoice.id}: ${invoice.hosted_invoice_url}`] : []),
    ].join('\n'),
  };
}
