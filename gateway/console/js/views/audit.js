import { el, errorRegion, heading, showError } from '../../shared/dom.js';
import { query, request } from '../api.js';
import { auditTable } from '../audit-table.js';

export const title = 'Audit log';

/** Every change made to accounts, newest first, a page at a time; one account's alone; and the export. */
export async function render(main) {
  const params = new URLSearchParams(location.search);
  const account = params.get('account_id') ?? '';
  const cursor = params.get('cursor') ?? undefined;
  const problem = errorRegion();
  main.append(
    heading(title),
    el('p', { class: 'lead' }, 'Every change made to an account (plans, suspensions, keys, proofs of address, sign-ins), by whom, when and from where. Entries are kept 400 days and cannot be changed here or anywhere.'),
    el('form', { class: 'search', method: 'get', action: '/admin/audit' },
      el('label', { for: 'account_id' }, 'Only one account'),
      el('div', { class: 'row' }, el('input', { id: 'account_id', name: 'account_id', value: account, maxlength: '28', autocomplete: 'off', placeholder: 'acc_…' }), el('button', { type: 'submit' }, 'Show')),
    ),
    el('p', {}, el('a', { class: 'button secondary', href: `/admin/console/v1/audit/export${query({ account_id: account })}`, download: 'tollgate-audit.jsonl', id: 'export' }, account ? 'Export this account’s entries (JSON lines)' : 'Export the whole log (JSON lines)')),
    problem,
  );
  try {
    const page = await request('GET', `/audit${query({ account_id: account, cursor, limit: 50 })}`);
    main.append(page.items.length ? auditTable('audit', 'Audit log entries, newest first', page.items, true) : el('p', { class: 'muted' }, 'No entries.'));
    main.append(el('nav', { class: 'pager', 'aria-label': 'Pages of the audit log' },
      cursor ? el('a', { href: `/admin/audit${query({ account_id: account })}` }, 'Newest') : null,
      page.next_cursor ? el('a', { href: `/admin/audit${query({ account_id: account, cursor: page.next_cursor })}`, rel: 'next' }, 'Older entries') : null,
    ));
  } catch (err) {
    showError(problem, err);
  }
}
