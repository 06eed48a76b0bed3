import { openInvoices } from '../billing/subscription-status';
import type { Context } from '../core/context';
import { formatDate, formatMoney } from '../core/format-money';
import type { Answer } from '../http/send-answer';
import type { Customer } from '../objects/customer';
import type { CardDetails } from '../objects/payment-method';
import type { PortalSession } from '../objects/portal-session';
import { currentPeriod } from '../objects/subscription';
import type { Subscription } from '../objects/subscription';
import { cardFields, html, page } from './html';
import type { Markup } from './html';

/** The messages a portal action leaves for the page it redirects to (`?done=…`). */
export const PORTAL_NOTICES: Record<string, string> = {
  card: 'Your card was saved.',
  paid: 'Thank you: the invoice is paid.',
  canceled: 'Your plan will be canceled at the end of the billing period.',
  renewed: 'Your plan will renew as usual.',
};

/** `GET /portal/:id`: the customer's plans, card and invoices, with what they can do to them. */
export function showPortal(ctx: Context, session: PortalSession, notice?: { status: number; text: string; error: boolean }): Answer {
  const customer = ctx.store.customers.get(session.customer);
  if (!customer) return page(404, 'Not found', html`<section><h1>This customer no longer exists.</h1></section>`);
  const subscriptions = ctx.store.subscriptions.all().filter((s) => s.customer === customer.id && s.status !== 'canceled' && s.status !== 'incomplete_expired');
  const card = shownCard(ctx, customer, subscriptions);
  const invoices = ctx.store.invoices.all().filter((i) => i.customer === customer.id);
  const owing = openInvoices(ctx, customer.id).length;
  const flow = session.flow?.type;
  const cardSection = html`<section id="payment-method"><h2>Payment method</h2>
<p>${card ? `${card.brand.toUpperCase()} •••• ${card.last4} · expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}` : 'No card on file.'}</p>
${owing > 0 ? html`<p class="error">You have ${owing} unpaid invoice${owing > 1 ? 's' : ''}; a new card pays ${owing > 1 ? 'them' : 'it'} at once.</p>` : ''}
<form method="post" action="/portal/${session.id}/payment-method">${cardFields()}<button type="submit" id="submit-card">${card ? 'Replace card' : 'Add card'}</button></form></section>`;
  const body = html`<section><p class="muted">${ctx.settings.accountName} · test mode</p><h1>${customer.email ?? customer.id}</h1>
${session.return_url ? html`<p><a href="${session.return_url}" id="return">← Return to ${ctx.settings.accountName}</a></p>` : ''}
${notice ? html`<p class="${notice.error ? 'error' : 'notice'}" role="${notice.error ? 'alert' : 'status'}" id="${notice.error ? 'error' : 'notice'}">${notice.text}</p>` : ''}</section>
${flow === 'payment_method_update' ? cardSection : ''}
<section id="subscriptions"><h2>Current plans</h2>${subscriptions.length === 0 ? html`<p>No current plans.</p>` : subscriptions.map((s) => planRow(ctx, session, s, flow === 'subscription_cancel' && session.flow?.subscription === s.id))}</section>
${flow === 'payment_method_update' ? '' : cardSection}
<section id="invoices"><h2>Invoice history</h2><table>${invoices.map(
    (i) => html`<tr><td>${formatDate(i.created)}</td><td>${formatMoney(i.total, i.currency)}</td><td><span class="badge">${i.status}</span></td>
<td>${i.hosted_invoice_url ? html`<a href="${i.hosted_invoice_url}">View</a>` : ''}</td>
<td>${i.status === 'open' ? html`<form method="post" action="/portal/${session.id}/pay"><input type="hidden" name="invoice" value="${i.id}"><button type="submit" class="secondary">Pay</button></form>` : ''}</td></tr>`,
  )}</table></section>`;
  return page(notice?.status ?? 200, `Billing · ${ctx.settings.accountName}`, body);
}

/**
 * The card that pays, as Stripe's portal shows it: the customer's default, else the one Checkout set
 * on the subscription (Checkout sets the subscription's default, not the customer's), else the
 * card attached last.
 */
function shownCard(ctx: Context, customer: Customer, subscriptions: Subscription[]): CardDetails | undefined {
  const candidates = [customer.invoice_settings.default_payment_method, ...subscriptions.map((s) => s.default_payment_method)];
  for (const id of candidates) {
    const card = id ? ctx.store.paymentMethods.get(id)?.card : undefined;
    if (card) return card;
  }
  return ctx.store.paymentMethods.all().filter((pm) => pm.customer === customer.id).sort((a, b) => b.created - a.created)[0]?.card;
}

function planRow(ctx: Context, session: PortalSession, subscription: Subscription, confirming: boolean): Markup {
  const names = subscription.items.data.map((item) => {
    const price = ctx.store.prices.get(item.price);
    const product = price ? ctx.store.products.get(price.product) : undefined;
    return `${product?.name ?? item.price}${price ? ` · ${formatMoney(price.unit_amount * item.quantity, price.currency)} / ${price.recurring?.interval ?? 'once'}` : ''}`;
  });
  const end = formatDate(currentPeriod(subscription).end);
  const state = subscription.cancel_at_period_end ? `Cancels on ${end}` : subscription.status === 'active' ? `Renews on ${end}` : 'Payment due';
  const action = subscription.cancel_at_period_end ? 'renew' : 'cancel';
  return html`<div class="plan" id="${subscription.id}"><p><strong>${names.join(', ')}</strong> <span class="badge">${subscription.status}</span></p><p class="muted">${state}</p>
${confirming ? html`<p>Cancel this plan at the end of the period?</p>` : ''}
<form method="post" action="/portal/${session.id}/${action}"><input type="hidden" name="subscription" value="${subscription.id}">
<button type="submit" class="${confirming ? '' : 'secondary'}">${action === 'cancel' ? 'Cancel plan' : 'Renew plan'}</button></form></div>`;
}
