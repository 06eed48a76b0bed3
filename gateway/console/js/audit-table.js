// The audit log as a table: on its own page and on each account's.
import { dateTime, el } from '../shared/dom.js';
import { shownKey } from './format.js';

/** "operator ops@example.com (console)", "customer acc_… (portal)": who made a change, and through what. */
export const actorText = (actor) => `${actor.type} ${actor.id} (${actor.via})`;

// A key's change names the key as the Keys table shows it (its secret's start and end), its id on hover.
const isKeyChange = (entry) => typeof entry.target === 'string' && entry.target.startsWith('key_') && typeof entry.details?.prefix === 'string' && typeof entry.details?.last4 === 'string';
const KEY_FACTS = new Set(['prefix', 'last4']);

function targetCell(entry) {
  if (!isKeyChange(entry)) return entry.target ?? '—';
  return el('span', { title: entry.target }, el('code', {}, shownKey(entry.details)));
}

function detailsText(entry) {
  const d = isKeyChange(entry) ? Object.fromEntries(Object.entries(entry.details).filter(([k]) => !KEY_FACTS.has(k))) : (entry.details ?? {});
  const plan = (s) => (s ? `${s.plan}${s.status === 'active' ? '' : ` ${s.status}`}${s.comp ? ' (comp)' : ''}` : 'none');
  if (entry.action === 'subscription.set' || entry.action === 'subscription.cancel') return `${plan(d.before)} → ${plan(d.after)}`;
  if (d.before !== undefined && d.after !== undefined) return `${d.before} → ${d.after}`;
  return Object.entries(d).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => `${k}: ${v}`).join(', ');
}

/** Entries newest first; `withAccount` adds the account each changed (the whole log's page). */
export function auditTable(id, caption, entries, withAccount) {
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked audit', id },
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, ['When (UTC)', 'What', ...(withAccount ? ['Account'] : []), 'On', 'Who', 'From', 'Details'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, entries.map((e) => el('tr', { 'data-action': e.action, 'data-entry-id': e.id },
      el('td', { 'data-label': 'When' }, dateTime(e.at)),
      el('th', { scope: 'row', 'data-label': 'What' }, e.action),
      withAccount ? el('td', { 'data-label': 'Account' }, e.account_id ? el('a', { href: `/admin/accounts/${encodeURIComponent(e.account_id)}` }, e.account_id) : '—') : null,
      el('td', { 'data-label': 'On' }, targetCell(e)),
      el('td', { 'data-label': 'Who' }, actorText(e.actor)),
      el('td', { 'data-label': 'From' }, e.from ?? '—'),
      el('td', { 'data-label': 'Details' }, detailsText(e)),
    ))),
  ));
}
