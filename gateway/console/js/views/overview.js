import { el, heading, int, price } from '../../shared/dom.js';
import { request } from '../api.js';
import { OUTCOME_COLUMNS, accountLink, apiTitle, countCell, percent, totalOf } from '../format.js';

export const title = 'Overview';

const HEALTH = { ready: 'Ready', not_ready: 'Not ready', unreachable: 'Unreachable' };

function callsTable(id, caption, apis, pick, withRate) {
  return el('div', { class: 'scroll' }, el('table', { class: 'calls stacked', id },
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'API'), OUTCOME_COLUMNS.map(([, label]) => el('th', { scope: 'col', class: 'num' }, label)), el('th', { scope: 'col', class: 'num' }, 'Total'), withRate ? el('th', { scope: 'col', class: 'num', 'aria-describedby': 'error-rate-meaning' }, 'Error rate') : null)),
    el('tbody', {}, apis.map((a) => el('tr', { 'data-api': a.api },
      el('th', { scope: 'row', 'data-label': 'API' }, apiTitle(a.api)),
      OUTCOME_COLUMNS.map(([outcome, label]) => el('td', { class: 'num', 'data-label': label }, int(pick(a)[outcome]))),
      el('td', { class: 'num', 'data-label': 'Total' }, int(totalOf(pick(a)))),
      withRate ? el('td', { class: 'num', 'data-label': 'Error rate' }, percent(a.error_rate_today)) : null,
    ))),
  ));
}

function revenue(billing) {
  if (!billing) {
    return [
      el('p', { class: 'figure', id: 'revenue' }, 'No paid plans on this server.'),
      el('p', { class: 'muted' }, 'Billing is not set up, so nothing is sold: plans granted here are comps. Once billing runs, paying subscriptions and monthly recurring revenue per currency show here.'),
    ];
  }
  return [
    el('dl', { class: 'facts', id: 'revenue' },
      el('dt', {}, 'Paying subscriptions'), el('dd', {}, int(billing.paying_subscriptions)),
      billing.mrr.flatMap((m) => [el('dt', {}, `Monthly recurring revenue (${m.currency})`), el('dd', {}, price(m.amount, m.currency))]),
    ),
  ];
}

/** Calls today and this month per API by outcome, the services' health, accounts, revenue and the top accounts. */
export async function render(main) {
  main.append(heading(title));
  const o = await request('GET', '/overview');
  main.append(
    el('p', { class: 'lead' }, `Today is ${o.day} (UTC). Calls are counted by every gateway and show here within a few seconds; calls with no known key are not counted.`),
    el('section', { class: 'card', 'aria-labelledby': 'calls-title' },
      el('h2', { id: 'calls-title' }, 'Calls'),
      callsTable('calls-today', `Today, ${o.day}`, o.apis, (a) => a.today, true),
      el('p', { class: 'muted', id: 'error-rate-meaning' }, 'Error rate: the share of today’s calls that failed on the gateway’s side, server errors (the service answered 5xx) and refunded calls (the service could not be reached or did not answer in time, so the call was given back), out of every call counted. Client errors and 429s are the caller’s doing and are not in it.'),
      callsTable('calls-month', `This month, ${o.month}`, o.apis, (a) => a.month, false),
    ),
    el('section', { class: 'card', 'aria-labelledby': 'health-title' },
      el('h2', { id: 'health-title' }, 'Services'),
      el('ul', { class: 'health', id: 'health' }, o.apis.map((a) => el('li', { 'data-api': a.api, class: a.health?.status ?? 'unknown' },
        el('strong', {}, `${apiTitle(a.api)}: ${HEALTH[a.health?.status] ?? 'Unknown'}`),
        a.health && a.health.status !== 'ready' ? ` (${a.health.detail})` : '',
      ))),
    ),
    el('div', { class: 'cards' },
      el('section', { class: 'card', 'aria-labelledby': 'accounts-title' },
        el('h2', { id: 'accounts-title' }, 'Accounts'),
        el('dl', { class: 'facts', id: 'accounts' },
          el('dt', {}, 'Accounts'), el('dd', {}, int(o.accounts.total)),
          el('dt', {}, 'Active this month'), el('dd', {}, int(o.accounts.active_this_month)),
        ),
        el('p', {}, el('a', { href: '/admin/accounts' }, 'Find or list accounts')),
      ),
      el('section', { class: 'card', 'aria-labelledby': 'revenue-title' }, el('h2', { id: 'revenue-title' }, 'Revenue'), revenue(o.billing)),
    ),
    el('section', { class: 'card', 'aria-labelledby': 'top-title' },
      el('h2', { id: 'top-title' }, `Top accounts by calls, ${o.month}`),
      o.top_accounts.length === 0
        ? el('p', { class: 'muted' }, 'No calls this month yet.')
        : el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'top-accounts' },
          el('caption', { class: 'visually-hidden' }, 'The ten accounts with the most calls this month'),
          el('thead', {}, el('tr', {}, ['Rank', 'Account', 'Status'].map((h) => el('th', { scope: 'col' }, h)), el('th', { scope: 'col', class: 'num' }, 'Calls'))),
          el('tbody', {}, o.top_accounts.map((t, i) => el('tr', {},
            el('td', { 'data-label': 'Rank' }, String(i + 1)),
            el('th', { scope: 'row', 'data-label': 'Account' }, accountLink(t)),
            el('td', { 'data-label': 'Status' }, t.status),
            countCell(t.calls, 'Calls'),
          ))),
        )),
    ),
  );
}
