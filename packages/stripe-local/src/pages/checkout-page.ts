import { shiftByIntervals } from '../billing/billing-periods';
import { completeCheckout } from '../billing/complete-checkout';
import { nowFor } from '../core/context';
import type { Context } from '../core/context';
import { formatDate, formatMoney } from '../core/format-money';
import type { Answer } from '../http/send-answer';
import { StripeError } from '../http/stripe-error';
import type { CheckoutSession } from '../objects/checkout-session';
import { TAX_RATES } from '../billing/tax-rates';
import { cardFields, html, Markup, notFoundPage, page, readCardFields, redirect } from './html';

/** The success URL with Stripe's `{CHECKOUT_SESSION_ID}` placeholder filled in. */
export function successUrl(session: CheckoutSession): string {
  return session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

/** `GET /checkout/:id`: the hosted Checkout page. */
export function showCheckout(ctx: Context, id: string, error?: { status: number; message: string }, form: Record<string, string> = {}): Answer {
  const session = ctx.store.checkoutSessions.get(id);
  if (!session) return notFoundPage('This Checkout Session does not exist.');
  if (session.status !== 'open') {
    const next = session.status === 'complete' ? html`<p>Your subscription is active.</p><p><a href="${successUrl(session)}">Continue</a></p>` : html`<p>This Checkout Session has expired.</p>${session.cancel_url ? html`<p><a href="${session.cancel_url}">Go back</a></p>` : ''}`;
    return page(200, ctx.settings.accountName, html`<section><h1>${ctx.settings.accountName}</h1>${next}</section>`);
  }
  const plan = ctx.store.sessionPlans.get(session.id);
  const prices = (plan?.lines ?? []).map((line) => ctx.store.prices.get(line.price));
  const recurring = prices[0]?.recurring;
  const per = recurring ? `per ${recurring.interval_count > 1 ? `${recurring.interval_count} ${recurring.interval}s` : recurring.interval}` : '';
  const lines = (plan?.lines ?? []).map((line, index) => {
    const product = prices[index] ? ctx.store.products.get(prices[index].product) : undefined;
    return html`<tr><td>${product?.name ?? line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}<br><span class="muted">Billed ${recurring?.interval === 'month' && recurring.interval_count === 1 ? 'monthly' : per}</span></td><td>${formatMoney(line.amount_total, line.currency)}</td></tr>`;
  });
  const each = (plan?.lines ?? []).reduce((sum, line) => sum + line.amount_total, 0);
  // As Stripe's page for a subscription whose first period is shortened: the price, then what is due today and from when the price recurs.
  const anchor = plan?.billingCycleAnchor;
  const from = anchor ?? (recurring ? shiftByIntervals(nowFor(ctx, session.customer), recurring, 1) : null);
  const email = session.customer ? ctx.store.customers.get(session.customer)?.email : session.customer_email;
  const body = html`<section>
<p class="muted">${ctx.settings.accountName} · test mode</p>
<h1>Subscribe</h1>
<p class="amount" id="recurring">${formatMoney(each, session.currency)} <span class="muted">${per}</span></p>
<table>${lines}
${plan?.automaticTax ? html`<tr><td>Tax</td><td id="tax">${session.total_details?.amount_tax ? formatMoney(session.total_details.amount_tax, session.currency) : 'Calculated from your billing address'}</td></tr>` : ''}
<tr><th scope="row">Total due today${plan?.automaticTax ? ' (before tax)' : ''}</th><th id="total">${formatMoney(session.amount_total, session.currency)}</th></tr></table>
${anchor ? html`<p class="muted" id="proration">Today’s payment covers the time until ${formatDate(anchor)}${plan?.prorate ? ', in proportion' : ', free of charge'}.</p>` : ''}
${from ? html`<p id="then">Then ${formatMoney(each, session.currency)} ${per} starting ${formatDate(from)}.</p>` : ''}
</section>
<section>
${error ? html`<p class="error" role="alert" id="error">${error.message}</p>` : ''}
<form method="post" action="/checkout/${session.id}">
<label for="email">Email</label>
${email ? html`<input id="email" value="${email}" disabled>` : html`<input id="email" name="email" type="email" autocomplete="email" value="${form.email ?? ''}" required>`}
${cardFields()}
<label for="billingName">Name on card</label>
<input id="billingName" name="billingName" autocomplete="cc-name" value="${form.billingName ?? ''}">
${plan?.collectAddress ? addressFields(form) : ''}
${plan?.collectTaxId ? html`<label for="taxId">VAT number, if you are purchasing as a business (optional)</label>
<input id="taxId" name="taxId" autocomplete="off" placeholder="DE123456789" value="${form.taxId ?? ''}">` : ''}
<button type="submit" id="submit" data-testid="hosted-payment-submit-button">Subscribe</button>
</form>
${session.cancel_url ? html`<p><a href="${session.cancel_url}" id="cancel">← Back</a></p>` : ''}
<p class="muted">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 saves but fails to pay; 4000 0000 0000 9995 is declined. Any future expiry, any CVC.</p>
</section>`;
  return page(error?.status ?? 200, `Subscribe · ${ctx.settings.accountName}`, body);
}

/** `POST /checkout/:id`: pays the session, then 303 to its success URL; a failure shows the form again. */
export function submitCheckout(ctx: Context, id: string, form: Record<string, string>): Answer {
  const session = ctx.store.checkoutSessions.get(id);
  if (!session) return notFoundPage('This Checkout Session does not exist.');
  try {
    completeCheckout(ctx, session, { ...readCardFields(form), email: form.email, name: form.billingName, country: form.billingCountry, line1: form.billingLine1, postalCode: form.billingPostalCode, city: form.billingCity, taxId: form.taxId });
    return redirect(successUrl(session));
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    return showCheckout(ctx, id, { status: error.status, message: error.body.message }, form);
  }
}

// The billing address Stripe Tax needs; the countries are the rate table's, and any other by its code.
function addressFields(form: Record<string, string>): Markup {
  const chosen = form.billingCountry ?? '';
  const countries = [...Object.keys(TAX_RATES), 'US'].sort();
  return html`<label for="billingCountry">Country</label>
<select id="billingCountry" name="billingCountry" autocomplete="country" required><option value="">Choose…</option>${countries.map((code) => html`<option value="${code}"${code === chosen ? new Markup(' selected') : ''}>${code}</option>`)}</select>
<label for="billingLine1">Address</label>
<input id="billingLine1" name="billingLine1" autocomplete="address-line1" value="${form.billingLine1 ?? ''}">
<div class="row"><div><label for="billingPostalCode">Postal code</label><input id="billingPostalCode" name="billingPostalCode" autocomplete="postal-code" value="${form.billingPostalCode ?? ''}"></div>
<div><label for="billingCity">City</label><input id="billingCity" name="billingCity" autocomplete="address-level2" value="${form.billingCity ?? ''}"></div></div>`;
}
