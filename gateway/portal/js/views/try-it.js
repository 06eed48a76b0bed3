import { copyText, el, errorRegion, fill, heading, int, showError, statusRegion } from '../../shared/dom.js';
import { openApi, plans, request } from '../api.js';
import { latestSecret } from '../secrets.js';
import { session } from '../session.js';
import { buildUrl, fillFields, parameterFields, parametersOf } from '../schema-form.js';
import { snippets } from '../snippets.js';
import { apiTitle, endpointsOf } from './common.js';

export const title = 'Try it';

const QUOTA_HEADERS = ['x-ratelimit-requests-limit', 'x-ratelimit-requests-remaining', 'x-ratelimit-requests-reset', 'ratelimit-policy', 'ratelimit', 'retry-after', 'x-request-id'];

function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Pick an endpoint, fill its parameters, send it with a key through the gateway; see and copy the call. */
export async function render(main, ctx) {
  const params = new URLSearchParams(location.search);
  const problem = errorRegion();
  main.append(heading(title), el('p', { class: 'lead' }, 'Calls go through the gateway like any other: they count against your plan or the playground.'), problem);
  const [doc, table] = await Promise.all([openApi(), plans().catch(() => null)]);
  // The catalogue's listed APIs (all the document has, when the catalogue could not be read).
  const listed = table ? new Set(table.filter((entry) => entry.listed).map((entry) => entry.api)) : null;
  const apis = (doc.tags ?? []).map((t) => t.name).filter((api) => endpointsOf(doc, api).length > 0 && (!listed || listed.has(api)));
  if (apis.length === 0) throw new Error('No API endpoints are known right now: the services’ references could not be read.');
  let usage = null;
  if (session()) usage = await request('GET', '/dashboard/v1/usage').catch(() => null);

  const apiSelect = el('select', { id: 'try-api', name: 'api' }, apis.map((api) => el('option', { value: api }, apiTitle(api))));
  const pathSelect = el('select', { id: 'try-path', name: 'path' });
  const paramsBox = el('div', { class: 'params' });
  const allowance = el('p', { class: 'allowance', id: 'allowance', role: 'status' });
  const kept = latestSecret();
  const pasted = el('input', { id: 'try-key', name: 'key', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'tg_…', 'aria-describedby': 'try-key-help' });
  const useKept = kept ? el('input', { type: 'radio', name: 'key-source', id: 'key-kept', value: 'kept', checked: params.get('key') === 'latest' || undefined }) : null;
  const usePasted = kept ? el('input', { type: 'radio', name: 'key-source', id: 'key-pasted', value: 'pasted', checked: params.get('key') !== 'latest' || undefined }) : null;
  const send = el('button', { type: 'submit' }, 'Send');
  const result = el('section', { class: 'card result', 'aria-labelledby': 'result-title', hidden: true });
  const snippetChoice = el('fieldset', { class: 'segmented' }, el('legend', {}, 'Copy as'), [['curl', 'curl'], ['fetch', 'JavaScript fetch'], ['python', 'Python requests']].map(([value, label], i) => el('label', {}, el('input', { type: 'radio', name: 'snippet', value, checked: i === 0 || undefined }), label)));
  const snippetCode = el('pre', { class: 'code', id: 'snippet', tabindex: '0' });
  const snippetStatus = statusRegion();
  if (apis.includes(params.get('api'))) apiSelect.value = params.get('api');

  function selectedSnippet() {
    return snippetChoice.querySelector('input:checked').value;
  }
  function currentUrl() {
    try {
      return `${location.origin}${buildUrl(pathSelect.value, paramsBox)}`;
    } catch {
      return `${location.origin}${pathSelect.value}`;
    }
  }
  function drawSnippet() {
    snippetCode.textContent = snippets(currentUrl(), ctx.keyHeader)[selectedSnippet()];
  }
  // One wording before and after every call: only the figures change.
  function quotaLine({ window, plan, remaining, limit }) {
    if (window === 'day') return `Playground: ${int(remaining)} of ${int(limit)} calls left today (no subscription).`;
    return `${plan ? `Plan ${plan}` : 'Your plan'}: ${int(remaining)} of ${int(limit)} calls left this month.`;
  }
  function drawAllowance() {
    const api = apiSelect.value;
    const line = usage?.apis.find((u) => u.api === api);
    if (!line) fill(allowance, session() ? `No plan for ${api}: subscribe to call it.` : 'Sign in to see your plan and playground allowance; a pasted key works either way.');
    else fill(allowance, quotaLine(line));
  }
  // The answer's headers are the newest figures: kept per API, so switching APIs shows them too.
  function countFromHeaders(api, res) {
    const remaining = res.headers.get('x-ratelimit-requests-remaining');
    const limit = res.headers.get('x-ratelimit-requests-limit');
    if (remaining === null || limit === null) return;
    const window = (res.headers.get('ratelimit-policy') ?? '').includes('"day"') ? 'day' : 'month';
    const known = usage?.apis.find((u) => u.api === api);
    const line = { api, window, plan: known && known.window === window ? known.plan : undefined, remaining: Number(remaining), limit: Number(limit) };
    usage = { ...usage, apis: [...(usage?.apis ?? []).filter((u) => u.api !== api), line] };
    drawAllowance();
  }
  function drawEndpoints() {
    const list = endpointsOf(doc, apiSelect.value);
    fill(pathSelect, list.map((e) => el('option', { value: e.path }, `GET ${e.path}${e.summary ? ` — ${e.summary}` : ''}`)));
    if (list.some((e) => e.path === params.get('path'))) pathSelect.value = params.get('path');
    drawParams();
    drawAllowance();
  }
  function drawParams() {
    const endpoint = endpointsOf(doc, apiSelect.value).find((e) => e.path === pathSelect.value);
    const fields = endpoint ? parameterFields(parametersOf(endpoint.path, endpoint.operation), 'param') : [];
    fill(paramsBox, fields.length ? fields : el('p', { class: 'muted' }, 'This endpoint takes no parameters.'));
    drawSnippet();
  }

  function secret() {
    if (useKept?.checked) return kept.secret;
    const value = pasted.value.trim();
    if (!value) throw Object.assign(new Error(kept ? 'Paste a key secret, or choose the key created in this tab.' : 'Paste a key secret (create one on the Keys page).'), { field: pasted });
    return value;
  }

  async function call(event) {
    event.preventDefault();
    showError(problem, null);
    let url;
    let key;
    try {
      url = buildUrl(pathSelect.value, paramsBox);
      key = secret();
    } catch (err) {
      showError(problem, err);
      err.field?.focus();
      return;
    }
    send.disabled = true;
    try {
      const res = await fetch(url, { headers: { [ctx.keyHeader]: key, accept: 'application/json' }, cache: 'no-store', credentials: 'omit' });
      const text = await res.text();
      const shown = QUOTA_HEADERS.filter((h) => res.headers.has(h));
      fill(result,
        el('h2', { id: 'result-title', tabindex: '-1' }, 'Response'),
        el('p', { class: `status-line ${res.ok ? 'ok' : 'bad'}` }, el('strong', { id: 'result-status' }, `${res.status} ${res.statusText}`), ` GET ${url}`),
        el('h3', {}, 'Quota headers'),
        shown.length ? el('dl', { class: 'headers', id: 'result-headers' }, shown.map((h) => [el('dt', {}, h), el('dd', {}, el('code', {}, res.headers.get(h)))])) : el('p', { class: 'muted' }, 'None on this answer.'),
        el('h3', {}, 'Body'),
        el('pre', { class: 'code', id: 'result-body', tabindex: '0' }, pretty(text)),
      );
      result.hidden = false;
      countFromHeaders(apiSelect.value, res);
      result.querySelector('h2').focus();
    } catch {
      showError(problem, new Error('The gateway could not be reached. Check your connection and try again.'));
    } finally {
      send.disabled = false;
    }
  }

  const keyField = kept
    ? el('fieldset', { class: 'stack' }, el('legend', {}, 'Key'),
        el('div', { class: 'choice' }, useKept, el('label', { for: 'key-kept' }, `The key created in this tab: ${kept.name} (`, el('code', {}, kept.shown), ')')),
        el('div', { class: 'choice' }, usePasted, el('label', { for: 'key-pasted' }, 'Paste a key secret')),
        pasted,
        el('span', { id: 'try-key-help', class: 'hint' }, 'Held in this tab’s memory only, sent only to this gateway.'))
    : el('div', { class: 'field' }, el('label', { for: 'try-key' }, 'Key secret'), pasted, el('span', { id: 'try-key-help', class: 'hint' }, 'Held in this tab’s memory only, sent only to this gateway. Create one on the Keys page.'));
  pasted.addEventListener('input', () => { if (usePasted && pasted.value) usePasted.checked = true; });

  main.append(
    el('form', { class: 'card try', novalidate: true, onsubmit: call, 'aria-label': 'Request' },
      el('div', { class: 'field' }, el('label', { for: 'try-api' }, 'API'), apiSelect),
      el('div', { class: 'field' }, el('label', { for: 'try-path' }, 'Endpoint'), pathSelect),
      el('fieldset', { class: 'stack' }, el('legend', {}, 'Parameters'), paramsBox),
      keyField,
      allowance,
      send,
    ),
    result,
    el('section', { class: 'card', 'aria-labelledby': 'snippet-title' },
      el('h2', { id: 'snippet-title' }, 'The same call in code'),
      el('p', { class: 'hint' }, 'Set TOLLGATE_KEY in your environment: snippets never contain the secret.'),
      snippetChoice,
      snippetCode,
      el('button', { type: 'button', class: 'secondary', onclick: () => copyText(snippetCode.textContent, snippetStatus, 'Snippet copied') }, 'Copy snippet'),
      snippetStatus,
    ),
  );
  apiSelect.addEventListener('change', drawEndpoints);
  pathSelect.addEventListener('change', drawParams);
  paramsBox.addEventListener('input', drawSnippet);
  snippetChoice.addEventListener('change', drawSnippet);
  drawEndpoints();
  // A reference page's Try it link names the endpoint and its parameters' values (`p.<name>`).
  if (pathSelect.value === params.get('path')) {
    fillFields(paramsBox, new Map([...params].filter(([name]) => name.startsWith('p.')).map(([name, value]) => [name.slice(2), value])));
    drawSnippet();
  }
}
