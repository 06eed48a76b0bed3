import { el, errorRegion, heading, int, price, showError } from '../../shared/dom.js';
import { openApi, plans } from '../api.js';
import { API_BLURBS, apiTitle, endpointsOf } from './common.js';

export const title = 'Catalogue';

function pricing(entry) {
  const currency = entry.plans[0]?.currency ?? '';
  return el(
    'table',
    { class: 'plans stacked' },
    el('caption', {}, `${apiTitle(entry.api)} plans, per month${currency ? ` (${currency})` : ''}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Plan'), el('th', { scope: 'col', class: 'num' }, 'Calls a month'), el('th', { scope: 'col', class: 'num' }, 'Calls a second'), el('th', { scope: 'col', class: 'num' }, 'Price a month'))),
    el('tbody', {}, entry.plans.map((p) => el('tr', {},
      el('th', { scope: 'row', 'data-label': 'Plan' }, p.name),
      el('td', { class: 'num', 'data-label': 'Calls a month' }, int(p.monthly_quota)),
      el('td', { class: 'num', 'data-label': 'Calls a second' }, int(p.rate_per_second)),
      el('td', { class: 'num', 'data-label': 'Price a month' }, price(p.price, p.currency)),
    ))),
  );
}

function endpoints(doc, api) {
  const list = endpointsOf(doc, api);
  if (list.length === 0) return el('p', { class: 'muted' }, 'Its endpoints are not listed right now (the service’s reference could not be read).');
  return el(
    'ul',
    { class: 'endpoints' },
    list.map((e) => el('li', {}, el('a', { href: `/portal/try?api=${encodeURIComponent(api)}&path=${encodeURIComponent(e.path)}` }, el('code', {}, 'GET ', e.path)), e.summary ? el('span', { class: 'muted' }, ` ${e.summary}`) : null)),
  );
}

/** The three APIs: what each answers, its endpoints and its plans. Needs no account. */
export async function render(main) {
  const problem = errorRegion();
  main.append(heading(title), el('p', { class: 'lead' }, 'Three read-only JSON APIs behind one key. Free plans need no card; token and logs also give 10 test calls a day without any plan.'), problem);
  const [table, doc] = await Promise.allSettled([plans(), openApi()]);
  if (table.status === 'rejected') {
    showError(problem, table.reason);
    return;
  }
  if (doc.status === 'rejected') showError(problem, doc.reason);
  const document = doc.status === 'fulfilled' ? doc.value : null;
  for (const entry of table.value) {
    const id = `api-${entry.api}`;
    main.append(
      el(
        'section',
        { class: 'card', 'aria-labelledby': id },
        el('h2', { id }, apiTitle(entry.api)),
        el('p', {}, API_BLURBS[entry.api] ?? ''),
        el('h3', {}, 'Endpoints'),
        endpoints(document, entry.api),
        el('h3', {}, 'Pricing'),
        el('div', { class: 'scroll' }, pricing(entry)),
        el('p', { class: 'playground' }, entry.playground_per_day > 0 ? `Playground: ${entry.playground_per_day} test calls a day without a subscription.` : 'No playground: subscribe to a plan (the free plan is at once) to call it.'),
      ),
    );
  }
  main.append(el('p', {}, el('a', { class: 'button', href: '/portal/sign-in' }, 'Get a key'), ' ', el('a', { href: '/docs' }, 'Full API reference')));
}
