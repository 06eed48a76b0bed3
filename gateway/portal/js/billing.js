// Paid plans: the billing status the pages share, the way to Stripe's pages, and the words for each state.
import { dateTime, el, int, price } from '../shared/dom.js';
import { request } from './api.js';

/** { card_payments, support_email?, subscriptions: [running paid subscriptions] } (read from the gateway, quick). */
export const billingStatus = () => request('GET', '/dashboard/v1/billing/status');

/** What taking or changing to a plan costs, before anything is charged (Stripe's invoice preview for a change). */
export const previewPlan = (api, plan) => request('GET', `/dashboard/v1/billing/subscriptions/${encodeURIComponent(api)}/preview?plan=${encodeURIComponent(plan)}`);

const day = (iso) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A preview in words: what makes up today's charge, the total due today, and what each later month costs. */
export function previewBody(preview) {
  const { currency } = preview;
  const money = (amount) => (amount === 0 ? `0 ${currency}` : price(amount, currency));
  const why = {
    checkout: `Today’s payment covers the time until ${day(preview.recurring_from)}, in proportion; Stripe’s payment page shows the same${preview.tax_now ? '' : ', with any tax for your address'} before you pay.`,
    now: 'The difference for the rest of this period is charged to your card when you confirm; the new plan applies at once.',
    period_end: `Nothing is charged today: your plan stays as it is until ${day(preview.recurring_from)}.`,
  }[preview.when];
  return el('div', { class: 'stack', id: 'price-preview' },
    el('table', { class: 'preview' },
      el('caption', { class: 'visually-hidden' }, 'What you pay'),
      el('tbody', {},
        preview.lines.length > 1 ? preview.lines.map((line) => el('tr', {}, el('td', {}, line.description), el('td', { class: 'num' }, money(line.amount)))) : null,
        preview.tax_now ? el('tr', {}, el('td', {}, 'Tax'), el('td', { class: 'num', id: 'tax-now' }, money(preview.tax_now))) : null,
        el('tr', {}, el('th', { scope: 'row' }, 'Due today'), el('td', { class: 'num', id: 'due-now' }, el('strong', {}, money(preview.due_now)))),
        el('tr', {}, el('th', { scope: 'row' }, `Then each month, from ${day(preview.recurring_from)}`), el('td', { class: 'num', id: 'recurring' }, money(preview.recurring))),
      ),
    ),
    el('p', { class: 'muted' }, why),
  );
}

/** Starts a card payment for a plan and sends the browser to Stripe Checkout. */
export async function goToCheckout(api, plan) {
  const { url } = await request('POST', '/dashboard/v1/billing/checkout', { api, plan });
  location.assign(url);
}

/** Opens Stripe's customer portal (card, invoices) for the card customer of a currency. */
export async function goToCardPortal(currency) {
  const { url } = await request('POST', '/dashboard/v1/billing/portal', currency ? { currency } : {});
  location.assign(url);
}

/** "Card payments are not set up on this server; write to …": what a paid plan says without a key. */
export function cardsOffText(status) {
  const ask = status.support_email ? el('a', { href: `mailto:${status.support_email}` }, status.support_email) : 'the people who run this server';
  return ['Card payments are not set up on this server, so paid plans cannot be taken here yet. To get one, ask ', ask, '.'];
}

/** One line saying where a paid subscription stands: processing, renewing, changing, ending, in grace or suspended. */
export function billedLine(sub) {
  const plan = `${sub.plan} (${price(sub.amount, sub.currency)} a month, by card)`;
  if (sub.state === 'processing') return `${plan}: payment processing…`;
  if (sub.state === 'grace') return `${plan}: the last payment failed. Calls are served until ${dateTime(sub.grace_until)}; pay the open invoice on the Billing page to keep them.`;
  if (sub.state === 'lapsed') return `${plan}: suspended because its payment failed. Calls get 402 until the open invoice is paid on the Billing page.`;
  if (sub.cancel_at_period_end) return `${plan}: ends on ${dateTime(sub.current_period_end)}; then the free plan.`;
  if (sub.next_plan) return `${plan}: changes to ${sub.next_plan} on ${dateTime(sub.current_period_end)}.`;
  return `${plan}: renews on ${dateTime(sub.current_period_end)}.`;
}

/** "650,000 calls a month, 15 a second" for a plan of the table. */
export function limitsText(table, api, plan) {
  const p = table.find((entry) => entry.api === api)?.plans.find((candidate) => candidate.name === plan);
  return p ? `${int(p.monthly_quota)} calls a month, ${int(p.rate_per_second)} a second` : '';
}

/** The banner for subscriptions whose payment failed (in grace or suspended), or null. */
export function paymentBanner(status, billingPath) {
  const failing = (status?.subscriptions ?? []).filter((sub) => sub.state === 'grace' || sub.state === 'lapsed');
  if (failing.length === 0) return null;
  return el('div', { class: 'banner', role: 'alert', id: 'payment-banner' },
    el('strong', {}, 'Payment failed. '),
    failing.map((sub) => (sub.state === 'grace'
      ? `The ${sub.api} ${sub.plan} plan’s calls are served until ${dateTime(sub.grace_until)}. `
      : `The ${sub.api} ${sub.plan} plan is suspended: calls get 402. `)),
    el('a', { href: billingPath }, 'Pay the open invoice or change the card'),
  );
}
