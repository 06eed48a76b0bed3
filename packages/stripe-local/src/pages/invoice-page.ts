import { payInvoice } from '../billing/invoices';
import { storeCard } from '../billing/payment-methods';
import { readCardForm } from '../billing/read-card-form';
import { momentFor } from '../core/context';
import type { Context } from '../core/context';
import { formatDate, formatMoney } from '../core/format-money';
import type { Answer } from '../http/send-answer';
import type { Invoice, InvoiceTax } from '../objects/invoice';
import { TAX_RATES } from '../billing/tax-rates';
import { cardError, StripeError } from '../http/stripe-error';
import { cardFields, html, notFoundPage, page, readCardFields, redirect } from './html';

// As Stripe's hosted invoice page: "Paid on …" once paid, the date it was issued otherwise.
function statusLine(invoice: Invoice): string {
  const { paid_at: paidAt, voided_at: voidedAt } = invoice.status_transitions;
  if (invoice.status === 'paid' && paidAt) return `Paid on ${formatDate(paidAt)}`;
  if (invoice.status === 'void' && voidedAt) return `Void since ${formatDate(voidedAt)}`;
  if (invoice.status === 'uncollectible') return `Uncollectible · issued ${formatDate(invoice.created)}`;
  return `Due · issued ${formatDate(invoice.created)}`;
}

/** "Tax (19%)", "Tax (reverse charge)": a tax line as Stripe's invoice names it. */
export function taxLabel(tax: InvoiceTax): string {
  if (tax.taxability_reason === 'reverse_charge') return 'Tax (reverse charge)';
  if (tax.taxability_reason === 'not_collecting') return 'Tax (not collected)';
  return `Tax (${TAX_RATES[tax.tax_rate_details.tax_rate.split('_')[1]!.toUpperCase()] ?? 0}%)`;
}

/** `GET /invoice/:id`: the hosted invoice page, with a card form while the invoice is open. */
export function showInvoice(ctx: Context, id: string, error?: { status: number; message: string }): Answer {
  const invoice = ctx.store.invoices.get(id);
  if (!invoice || invoice.status === 'draft') return notFoundPage('This invoice does not exist.');
  const body = html`<section><p class="muted">${ctx.settings.accountName} · test mode</p>
<h1>Invoice ${invoice.number ?? invoice.id}</h1>
<p class="amount">${formatMoney(invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_remaining, invoice.currency)}</p>
<p id="status">${statusLine(invoice)}</p>
<table>${invoice.lines.data.map((line) => html`<tr><td>${line.description}</td><td>${formatMoney(line.amount, line.currency)}</td></tr>`)}
${invoice.total_taxes.map((tax) => html`<tr><td>${taxLabel(tax)}</td><td class="tax">${formatMoney(tax.amount, invoice.currency)}</td></tr>`)}
<tr><th>Total</th><th>${formatMoney(invoice.total, invoice.currency)}</th></tr></table>
<p><a href="/invoice/${invoice.id}/pdf">Download invoice (PDF)</a></p></section>
${invoice.status === 'open' ? html`<section><h2>Pay this invoice</h2>${error ? html`<p class="error" role="alert" id="error">${error.message}</p>` : ''}
<form method="post" action="/invoice/${invoice.id}">${cardFields()}<button type="submit" id="submit">Pay ${formatMoney(invoice.amount_remaining, invoice.currency)}</button></form></section>` : ''}`;
  return page(error?.status ?? 200, `Invoice · ${ctx.settings.accountName}`, body);
}

/** `POST /invoice/:id`: pays the open invoice with the card typed in (the card is not saved). */
export function submitInvoice(ctx: Context, id: string, form: Record<string, string>): Answer {
  const invoice = ctx.store.invoices.get(id);
  if (!invoice || invoice.status === 'draft') return notFoundPage('This invoice does not exist.');
  if (invoice.status !== 'open') return redirect(`/invoice/${invoice.id}`);
  try {
    const moment = momentFor(ctx, invoice.customer);
    const card = readCardForm(readCardFields(form), moment.at);
    if (card.testCard.attach) throw cardError(card.testCard.attach);
    const paymentMethod = storeCard(ctx, card.testCard, card.details, moment.at);
    const decline = payInvoice(ctx, invoice, moment, { paymentMethodId: paymentMethod.id });
    if (decline) throw cardError(decline);
    return redirect(`/invoice/${invoice.id}`);
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    return showInvoice(ctx, id, { status: error.status, message: error.body.message });
  }
}
