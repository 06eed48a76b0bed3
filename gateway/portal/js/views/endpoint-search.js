import { el, fill } from '../../shared/dom.js';
import { endpointsOf, referenceHref } from '../endpoints.js';

/** What a query is matched against: the API, the path, the summary, the description and the parameters' names. */
function searchable(api, endpoint) {
  const params = (endpoint.operation.parameters ?? []).map((p) => p.name).join(' ');
  return `${api} get ${endpoint.path} ${endpoint.summary} ${endpoint.operation.description ?? ''} ${params}`.toLowerCase();
}

/** The catalogue's endpoint search: every word typed must appear; each hit links to its reference anchor. */
export function endpointSearch(doc, apis) {
  const index = apis.flatMap((api) => endpointsOf(doc, api).map((endpoint) => ({ api, endpoint, text: searchable(api, endpoint) })));
  const input = el('input', { id: 'endpoint-search', type: 'search', name: 'q', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'endpoint-search-help', 'aria-controls': 'endpoint-results' });
  const status = el('p', { class: 'status', role: 'status', id: 'endpoint-search-status' });
  const results = el('ul', { class: 'endpoints', id: 'endpoint-results', 'aria-label': 'Matching endpoints' });
  function search() {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = words.length ? index.filter((entry) => words.every((w) => entry.text.includes(w))) : [];
    fill(results, hits.map(({ api, endpoint }) => el('li', {}, el('a', { href: referenceHref(api, endpoint.path) }, el('code', {}, 'GET ', endpoint.path)), endpoint.summary ? el('span', { class: 'muted' }, ` ${endpoint.summary}`) : null)));
    fill(status, words.length === 0 ? '' : hits.length === 0 ? 'No endpoint matches.' : `${hits.length} endpoint${hits.length === 1 ? '' : 's'} match.`);
  }
  input.addEventListener('input', search);
  return el('form', { class: 'card search', role: 'search', 'aria-label': 'Endpoints', onsubmit: (event) => { event.preventDefault(); results.querySelector('a')?.focus(); } },
    el('div', { class: 'field' },
      el('label', { for: 'endpoint-search' }, 'Search endpoints'),
      input,
      el('span', { id: 'endpoint-search-help', class: 'hint' }, 'By path, what it answers or a parameter, e.g. “transfers” or “chain”.'),
    ),
    status,
    results,
  );
}
