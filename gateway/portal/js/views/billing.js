import { dateTime, el, errorRegion, fill, heading, price, showError, statusRegion } from '../../shared/dom.js';
import { plans, request } from '../api.js';
import { billedLine, billingStatus, cardsOffText, goToCardPortal, limitsText } from '../billing.js';
import { apiTitle, requireRole, requireSession } from './common.js';

export const title = 'Billing';

const STATUS_WORDS = { active: 'Active', grace: 'Payment failed (grace)', lapsed: 'Suspended: unpaid', processing: 'Payment processing', ended: 'Ended' };
const INVOICE_WORDS = { paid: 'Paid', open: 'Due', draft: 'Draft', void: 'Void', uncollectible: 'Uncollectible' };
// How long the page waits, checking every second, for a payment to be confirmed after Checkout.
const CONFIRM_TRIES = 90;
const sleep = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Paid subscriptions, invoices and the way to Stripe's customer portal; after Checkout, the wait for the payment. */
export async function render(main, ctx) {
  if (requireSession(main, ctx, title, 'see your paid plans and invoices') && (await requireRole(main, title, 'billing', '/dashboard/v1/billing'))) await renderSignedIn(main, ctx);
}

async function renderSignedIn(main, ctx) {
  const problem = errorRegion();
  const status = statusRegion();
  const content = el('div');
  main.append(heading(title), problem, status, content);
  const [table, billing] = await Promise.all([plans(), billingStatus()]);
  if (!billing.card_payments) {
    content.append(el('p', {}, cardsOffText(billing)));
    return;
  }
  const checkout = new URLSearchParams(location.search).get('checkout');
  const redraw = () => draw(content, problem, ctx, billing.support_email);
  if (checkout && checkout !== 'canceled') void waitForPayment(checkout, status, problem, table, redraw);
  await redraw();
}

// The plan starts when Stripe confirms the payment (a webhook, or this read-back): never from the return address itself.
async function waitForPayment(sessionId, status, problem, table, redraw) {
  fill(status, 'Payment processing… your plan starts as soon as Stripe confirms the payment.');
  for (let i = 0; i < CONFIRM_TRIES; i++) {
    let answer;
    try {
      answer = await request('GET', `/dashboard/v1/billing/checkout/${encodeURIComponent(sessionId)}`);
    } catch (err) {
      showError(problem, err);
      fill(status, '');
      return;
    }
    const sub = answer.subscription;
    if (sub && sub.state !== 'processing') {
      fill(status, `Payment received: your ${sub.api} ${sub.plan} plan is active (${limitsText(table, sub.api, sub.plan)}).`);
      history.replaceState(null, '', location.pathname);
      await redraw();
      return;
    }
    await sleep(1000);
  }
  fill(status, 'Still processing: the plan starts as soon as Stripe confirms the payment. You may leave this page.');
}

async function draw(content, problem, ctx, supportEmail) {
  let page;
  try {
    page = await request('GET', '/dashboard/v1/billing');
  } catch (err) {
    showError(problem, err);
    return;
  }
  const portal = errorRegion();
  const buttons = page.currencies.map((currency) => el('button', { type: 'button', 'aria-label': page.currencies.length > 1 ? `Manage card and invoices (${currency})` : 'Manage card and invoices', onclick: async (e) => {
    const button = e.currentTarget;
    button.disabled = true;
    showError(portal, null);
    try {
      await goToCardPortal(currency);
    } catch (err) {
      showError(portal, err);
      button.disabled = false;
    }
  } }, page.currencies.length > 1 ? `Manage card and invoices (${currency})` : 'Manage card and invoices'));
  fill(content,
    el('section', { class: 'card', 'aria-labelledby': 'paid-plans' },
      el('h2', { id: 'paid-plans' }, 'Paid plans'),
      page.subscriptions.length === 0
        ? el('p', {}, 'No paid plan yet. ', el('a', { href: ctx.pathOf('subscriptions') }, 'Choose one on Subscriptions'), '.')
        : el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'paid-subscriptions' },
          el('caption', { class: 'visually-hidden' }, 'Paid plans'),
          el('thead', {}, el('tr', {}, ['API', 'Plan', 'Price a month', 'Status', 'Next renewal', ''].map((h) => el('th', { scope: 'col' }, h)))),
          el('tbody', {}, page.subscriptions.map((sub) => el('tr', { 'data-api': sub.api },
            el('th', { scope: 'row', 'data-label': 'API' }, apiTitle(sub.api)),
            el('td', { 'data-label': 'Plan' }, sub.plan),
            el('td', { 'data-label': 'Price a month', class: 'num' }, price(sub.amount, sub.currency)),
            el('td', { 'data-label': 'Status' }, STATUS_WORDS[sub.state] ?? sub.state),
            el('td', { 'data-label': 'Next renewal' }, sub.cancel_at_period_end ? `Ends ${dateTime(sub.current_period_end)}` : dateTime(sub.current_period_end)),
            el('td', { class: 'note' }, sub.withdrawn ? `Withdrawn from this gateway’s catalogue: it ends ${dateTime(sub.current_period_end)} and is not charged again.` : billedLine(sub)),
          ))),
        )),
      buttons.length ? el('p', { class: 'row' }, buttons) : null,
      portal,
    ),
    page.payments && page.payments.length ? el('section', { class: 'card', 'aria-labelledby': 'payments' },
      el('h2', { id: 'payments' }, 'Payments'),
      payments(page.payments),
    ) : null,
    el('section', { class: 'card', 'aria-labelledby': 'invoices' },
      el('h2', { id: 'invoices' }, 'Invoices'),
      page.missing_customers.length ? el('p', { class: 'error', role: 'alert', id: 'missing-customers' }, missingText(page.missing_customers, supportEmail)) : null,
      invoices(page.invoices, page.missing_customers.length > 0),
    ),
  );
}

// Each card payment received, with Stripe's receipt: what was mailed to the person, to open again.
function payments(list) {
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'payment-list' },
    el('caption', { class: 'visually-hidden' }, 'Payments received, newest first'),
    el('thead', {}, el('tr', {}, ['Date', 'Amount', 'Card', 'Receipt'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, list.map((payment) => el('tr', { 'data-payment': payment.id },
      el('th', { scope: 'row', 'data-label': 'Date' }, `Payment received ${dateTime(payment.created_at)}`),
      el('td', { 'data-label': 'Amount', class: 'num' }, price(payment.amount, payment.currency)),
      el('td', { 'data-label': 'Card' }, payment.card ?? '—'),
      el('td', { 'data-label': 'Receipt' }, payment.receipt_url ? el('a', { href: payment.receipt_url, rel: 'noopener' }, 'Receipt') : '—'),
    ))),
  ));
}

// Stripe lost the customer (deleted there, or a stand-in that started empty): the plans stand, the card and invoices cannot be shown.
function missingText(currencies, supportEmail) {
  const ask = supportEmail ? ['write to ', el('a', { href: `mailto:${supportEmail}` }, supportEmail)] : ['ask the people who run this server'];
  return [`Stripe no longer has the card customer this account pays its ${currencies.join(' and ')} plans with, so their invoices and card cannot be shown here. The plans above are unchanged; `, ...ask, '.'];
}

// `unknown`: some customer's invoices could not be read, so an empty list does not mean none.
function invoices(list, unknown) {
  if (list === null) return el('p', { class: 'error', role: 'alert' }, 'Invoices could not be loaded right now (Stripe did not answer); the plans above are up to date. Try again in a minute.');
  if (list.length === 0) return unknown ? null : el('p', { class: 'muted' }, 'No invoices yet.');
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'invoice-list' },
    el('caption', { class: 'visually-hidden' }, 'Invoices, newest first'),
    el('thead', {}, el('tr', {}, ['Date', 'What', 'Amount', 'Status', 'Documents'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, list.map((invoice) => el('tr', { 'data-invoice': invoice.id },
      el('th', { scope: 'row', 'data-label': 'Date' }, dateTime(invoice.created_at)),
      el('td', { 'data-label': 'What' }, invoice.description || invoice.id),
      el('td', { 'data-label': 'Amount', class: 'num' }, price(invoice.amount, invoice.currency), invoice.tax ? el('span', { class: 'muted' }, ` incl. ${price(invoice.tax, invoice.currency)} tax`) : null),
      el('td', { 'data-label': 'Status' }, INVOICE_WORDS[invoice.status] ?? invoice.status),
      el('td', { 'data-label': 'Documents' },
        invoice.hosted_url ? el('a', { href: invoice.hosted_url, rel: 'noopener' }, invoice.status === 'open' ? 'Pay invoice' : 'Invoice page') : null,
        invoice.hosted_url && invoice.pdf_url ? ' · ' : null,
        invoice.pdf_url ? el('a', { href: invoice.pdf_url, rel: 'noopener' }, 'PDF') : null,
      ),
    ))),
  ));
}
