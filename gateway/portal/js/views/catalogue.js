import { el, errorRegion, heading, showError } from '../../shared/dom.js';
import { openApi, plans } from '../api.js';
import { apiTitle, endpointsOf } from './common.js';
import { planTable } from './plan-table.js';
import { endpointSearch } from './endpoint-search.js';
import { referenceHref, tagOf } from '../endpoints.js';

export const title = 'Catalogue';

function endpoints(doc, api) {
  const list = endpointsOf(doc, api);
  if (list.length === 0) return el('p', { class: 'muted' }, 'Its endpoints are not listed right now (the service’s reference could not be read).');
  return el(
    'ul',
    { class: 'endpoints' },
    list.map((e) => el('li', {}, el('a', { href: referenceHref(api, e.path) }, el('code', {}, 'GET ', e.path)), e.summary ? el('span', { class: 'muted' }, ` ${e.summary}`) : null)),
  );
}

/** The catalogue's listed APIs: what each answers, its endpoints and its plans. Needs no account. */
export async function render(main) {
  const problem = errorRegion();
  const lead = el('p', { class: 'lead' }, 'JSON APIs behind one key. A free plan needs no card.');
  main.append(heading(title), lead, problem);
  const [all, doc] = await Promise.allSettled([plans(), openApi()]);
  if (all.status === 'rejected') {
    showError(problem, all.reason);
    return;
  }
  const table = { value: all.value.filter((entry) => entry.listed) };
  const playground = table.value.filter((entry) => entry.playground_per_day > 0).map((entry) => apiTitle(entry.api));
  if (playground.length) lead.append(` ${playground.join(', ')} also ${playground.length === 1 ? 'gives' : 'give'} test calls without any plan.`);
  if (doc.status === 'rejected') showError(problem, doc.reason);
  const document = doc.status === 'fulfilled' ? doc.value : null;
  if (document) main.append(endpointSearch(document, table.value.map((entry) => entry.api)));
  for (const entry of table.value) {
    const id = `api-${entry.api}`;
    main.append(
      el(
        'section',
        { class: 'card', 'aria-labelledby': id },
        el('h2', { id }, apiTitle(entry.api)),
        el('p', {}, entry.summary),
        el('h3', {}, 'Endpoints'),
        endpoints(document, entry.api),
        el('p', {}, el('a', { href: referenceHref(entry.api) }, `${apiTitle(entry.api)} API reference`), ': parameters, answers, errors and code for each endpoint.'),
        el('h3', {}, 'Pricing'),
        el('div', { class: 'scroll' }, planTable(entry, tagOf(document, entry.api)?.['x-plan-features'])),
        el('p', { class: 'playground' }, entry.playground_per_day > 0 ? `Playground: ${entry.playground_per_day} test calls a day without a subscription.` : 'No playground: subscribe to a plan (the free plan is at once) to call it.'),
      ),
    );
  }
  main.append(el('p', {}, el('a', { class: 'button', href: '/portal/sign-in' }, 'Get a key'), ' ', el('a', { href: '/docs' }, 'Full API reference')));
}
