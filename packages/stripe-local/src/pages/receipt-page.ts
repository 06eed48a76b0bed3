import type { Context } from '../core/context';
import { formatDate, formatMoney } from '../core/format-money';
import type { Answer } from '../http/send-answer';
import { html, notFoundPage, page } from './html';

/** `GET /receipts/:id` (a charge's `receipt_url`): the receipt, as Stripe's receipt page shows it. */
export function showReceipt(ctx: Context, id: string): Answer {
  const charge = ctx.store.charges.get(id);
  if (!charge) return notFoundPage('This receipt does not exist.');
  const invoice = ctx.store.invoices.get(ctx.store.chargeInvoices.get(id) ?? '');
  const card = charge.payment_method_details.card;
  const tax = invoice?.total_taxes.reduce((sum, t) => sum + t.amount, 0) ?? 0;
  const body = html`<section><p class="muted">${ctx.settings.accountName} · test mode</p>
<h1>Receipt from ${ctx.settings.accountName}</h1>
<p class="muted">${charge.receipt_number ? `Receipt #${charge.receipt_number}` : ''}</p>
<table>
<tr><th scope="row">Amount paid</th><td id="amount">${formatMoney(charge.amount, charge.currency)}</td></tr>
<tr><th scope="row">Date paid</th><td>${formatDate(charge.created)}</td></tr>
<tr><th scope="row">Payment method</th><td id="card">${card.brand.toUpperCase()} – ${card.last4}</td></tr>
</table></section>
${invoice ? html`<section><h2>Summary</h2><table>${invoice.lines.data.map((line) => html`<tr><td>${line.description}</td><td>${formatMoney(line.amount, line.currency)}</td></tr>`)}
${tax ? html`<tr><td>Tax</td><td id="tax">${formatMoney(tax, invoice.currency)}</td></tr>` : ''}
<tr><th scope="row">Amount charged</th><th>${formatMoney(charge.amount, charge.currency)}</th></tr></table>
${invoice.hosted_invoice_url ? html`<p><a href="${invoice.hosted_invoice_url}">Invoice ${invoice.number ?? invoice.id}</a></p>` : ''}</section>` : ''}`;
  return page(200, `Receipt · ${ctx.settings.accountName}`, body);
}
