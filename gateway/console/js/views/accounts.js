import { dateTime, el, errorRegion, heading, showError } from '../../shared/dom.js';
import { query, request } from '../api.js';
import { accountLink, plansText, shownKey } from '../format.js';

export const title = 'Accounts';

function accountsTable(id, caption, rows) {
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked', id },
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, ['Account', 'Id', 'Status', 'Created', 'Plans', 'Matched keys'].filter((h) => h !== 'Matched keys' || rows.some((r) => r.keys)).map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map(({ account, keys }) => el('tr', { 'data-account-id': account.id },
      el('th', { scope: 'row', 'data-label': 'Account' }, accountLink(account)),
      el('td', { 'data-label': 'Id' }, el('code', {}, account.id)),
      el('td', { 'data-label': 'Status' }, account.status),
      el('td', { 'data-label': 'Created' }, dateTime(account.created_at)),
      el('td', { 'data-label': 'Plans' }, plansText(account.subscriptions)),
      keys ? el('td', { 'data-label': 'Matched keys' }, keys.length ? keys.map((k) => el('div', {}, el('code', {}, shownKey(k)), ` ${k.name}`)) : '—') : null,
    ))),
  ));
}

/** Search by email, account or key id, or key prefix; or every account, newest first, a page at a time. */
export async function render(main) {
  const params = new URLSearchParams(location.search);
  const q = params.get('q') ?? '';
  const cursor = params.get('cursor') ?? undefined;
  const problem = errorRegion();
  main.append(
    heading(title),
    el('form', { class: 'search', method: 'get', action: '/admin/accounts', role: 'search' },
      el('label', { for: 'q' }, 'Find an account'),
      el('div', { class: 'row' }, el('input', { id: 'q', name: 'q', type: 'search', value: q, maxlength: '300', autocomplete: 'off', 'aria-describedby': 'q-help' }), el('button', { type: 'submit' }, 'Find')),
      el('p', { id: 'q-help', class: 'hint' }, 'An email address, an account id (acc_…), a key id (key_…) or a key prefix (tg_…, or a key as shown: tg_……last4).'),
    ),
    problem,
  );
  try {
    if (q) {
      const found = await request('GET', `/accounts/search${query({ q })}`);
      main.append(el('h2', { id: 'results' }, found.items.length ? `${found.items.length} found for “${q}”` : `Nothing found for “${q}”`));
      if (found.items.length) main.append(accountsTable('search-results', `Accounts found for ${q}`, found.items));
      main.append(el('p', {}, el('a', { href: '/admin/accounts' }, 'Every account')));
      return;
    }
    const page = await request('GET', `/accounts${query({ cursor })}`);
    main.append(el('h2', {}, cursor ? 'Older accounts' : 'Every account, newest first'));
    main.append(page.items.length ? accountsTable('accounts', 'Accounts, newest first', page.items.map((account) => ({ account }))) : el('p', { class: 'muted' }, 'No accounts yet.'));
    main.append(el('nav', { class: 'pager', 'aria-label': 'Pages of accounts' },
      cursor ? el('a', { href: '/admin/accounts' }, 'Newest') : null,
      page.next_cursor ? el('a', { href: `/admin/accounts${query({ cursor: page.next_cursor })}`, rel: 'next' }, 'Older accounts') : null,
    ));
  } catch (err) {
    showError(problem, err);
  }
}
