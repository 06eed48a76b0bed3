// What the console's views show the same way: APIs, outcomes, rates, accounts.
import { el, int } from '../shared/dom.js';

/** "Token", from "token". */
export const apiTitle = (api) => api.charAt(0).toUpperCase() + api.slice(1);

/** The outcomes counted, in the order shown. */
export const OUTCOME_COLUMNS = [
  ['2xx', 'Served'],
  ['429', 'Rejected (429)'],
  ['4xx', 'Client errors'],
  ['5xx', 'Server errors'],
  ['refunded', 'Refunded'],
];

/** Every call counted, whatever its outcome. */
export const totalOf = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

/** "1.25 %" (or "—" with no calls). */
export const percent = (rate) => (rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(2)} %`);

/** A link to an account's page, named by its address (or name, or id). */
export function accountLink(account) {
  return el('a', { href: `/admin/accounts/${encodeURIComponent(account.id ?? account.account_id)}` }, account.email || account.name || account.id || account.account_id);
}

/** A key as keys are shown everywhere: prefix…last four. */
export const shownKey = (key) => `${key.prefix}…${key.last4}`;

/** "starter (comp)", "free, inactive": one API's subscription in a few words. */
export function planText(sub) {
  if (!sub) return 'none';
  return `${sub.plan}${sub.status === 'active' ? '' : `, ${sub.status}`}${sub.comp ? ' (comp)' : ''}`;
}

/** The account's plans, API by API, in a few words. */
export function plansText(subscriptions) {
  const entries = Object.entries(subscriptions ?? {});
  return entries.length ? entries.map(([api, sub]) => `${api}: ${planText(sub)}`).join('; ') : 'no plan';
}

/** A count cell, labelled for the phone layout. */
export const countCell = (n, label) => el('td', { class: 'num', 'data-label': label }, int(n));
