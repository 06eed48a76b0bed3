import { completeCheckout } from '../billing/complete-checkout';
import type { Context } from '../core/context';
import { formatDate, formatMoney } from '../core/format-money';
import type { Answer } from '../http/send-answer';
import { StripeError } from '../http/stripe-error';
import type { CheckoutSession } from '../objects/checkout-session';
import { cardFields, html, notFoundPage, page, readCardFields, redirect } from './html';

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
  const lines = (plan?.lines ?? []).map((line) => {
    const price = ctx.store.prices.get(line.price);
    const product = price ? ctx.store.products.get(price.product) : undefined;
    const per = price?.recurring ? ` per ${price.recurring.interval_count > 1 ? `${price.recurring.interval_count} ` : ''}${price.recurring.interval}` : '';
    return html`<tr><td>${product?.name ?? line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}</td><td>${formatMoney(line.amount_total, line.currency)}${per}</td></tr>`;
  });
  const anchor = plan?.billingCycleAnchor;
  const email = session.customer ? ctx.store.customers.get(session.customer)?.email : session.customer_email;
  const body = html`<section>
<p class="muted">${ctx.settings.accountName} · test mode</p>
<h1>Subscribe</h1>
<p class="amount" id="total">${formatMoney(session.amount_total, session.currency)}</p>
${anchor ? html`<p class="muted">The first payment covers the time until ${formatDate(anchor)}${plan?.prorate ? ', in proportion' : ', free of charge'}.</p>` : ''}
<table>${lines}</table>
</section>
<section>
${error ? html`<p class="error" role="alert" id="error">${error.message}</p>` : ''}
<form method="post" action="/checkout/${session.id}">
<label for="email">Email</label>
${email ? html`<input id="email" value="${email}" disabled>` : html`<input id="email" name="email" type="email" autocomplete="email" value="${form.email ?? ''}" required>`}
${cardFields()}
<label for="billingName">Name on card</label>
<input id="billingName" name="billingName" autocomplete="cc-name" value="${form.billingName ?? ''}">
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
    completeCheckout(ctx, session, { ...readCardFields(form), email: form.email, name: form.billingName });
    return redirect(successUrl(session));
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    return showCheckout(ctx, id, { status: error.status, message: error.body.message }, form);
  }
}
