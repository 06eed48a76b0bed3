import { copyText, el, errorRegion, heading, int, showError, statusRegion } from '../../shared/dom.js';
import { openApi, plans } from '../api.js';
import { tagOf } from '../endpoints.js';
import { operationsOf, typeScriptClient } from '../reference.js';
import { sampleOf } from '../schema-sample.js';
import { apiTitle, descriptionOf } from './common.js';
import { endpointSection } from './endpoint-section.js';
import { planTable } from './plan-table.js';

export const title = 'API reference';

/** The headers of every answer a plan or the playground counted, as the gateway sends them (see rate-limit-headers.ts). */
const QUOTA_HEADERS = [
  ['X-RateLimit-Requests-Limit', 'The calls your plan allows in its window: the calendar month (UTC) on a plan, the UTC day in the playground.'],
  ['X-RateLimit-Requests-Remaining', 'The calls left in that window after this one.'],
  ['X-RateLimit-Requests-Reset', 'Seconds until that window starts again.'],
  ['RateLimit-Policy', 'Each window that applies, in the IETF form: "second";q=8;w=1, "month";q=118000;w=2592000 on a plan, "day";q=10;w=86400 in the playground.'],
  ['RateLimit', 'What is left of each window and when it resets: "second";r=7;t=1, "month";r=117999;t=1209600.'],
  ['Retry-After', 'On a 429 or 503: seconds to wait before calling again (until the second frees a slot, or the month ends).'],
  ['x-request-id', 'The call’s id, the same at the gateway and the service: quote it when you ask for help.'],
];

function section(id, heading2, ...children) {
  return el('section', { class: 'card', 'aria-labelledby': id }, el('h2', { id, tabindex: '-1' }, heading2), ...children);
}

/** Every status and code this API's endpoints document, once each, with the error envelope they come in. */
function errorsSection(doc, ops) {
  const rows = new Map();
  for (const op of ops) for (const r of op.responses) if (!r.status.startsWith('2')) rows.set(`${r.status} ${r.codes.join(',')}`, r);
  const envelope = sampleOf(doc.components?.schemas?.ErrorEnvelope ?? {}, doc);
  Object.assign(envelope, { message: 'The monthly quota of your plan is used up: it starts again on the 1st at 00:00 UTC, or take a bigger plan.', error: { code: 'QUOTA_EXCEEDED' } });
  return section('errors', 'Errors',
    el('p', {}, 'Every refusal has the same JSON shape, the error envelope: ', el('code', {}, 'success'), ' is false, ', el('code', {}, 'error.code'), ' says what happened (one code per cause, safe to branch on), ', el('code', {}, 'message'), ' says it in words and ', el('code', {}, 'error.details'), ' carries the facts (a parameter at fault, a plan) when there are any.'),
    el('pre', { class: 'code', tabindex: '0', 'aria-label': 'An example error envelope' }, JSON.stringify(envelope, null, 2)),
    el('div', { class: 'scroll' }, el('table', { class: 'stacked errors-table' },
      el('caption', {}, 'Statuses and codes'),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Status'), el('th', { scope: 'col' }, 'Code'), el('th', { scope: 'col' }, 'When'))),
      el('tbody', {}, [...rows.values()].sort((a, b) => a.status.localeCompare(b.status)).map((r) => el('tr', {},
        el('th', { scope: 'row', 'data-label': 'Status' }, r.status),
        el('td', { 'data-label': 'Code' }, r.codes.length ? r.codes.map((c, i) => [i ? ', ' : '', el('code', {}, c)]) : '—'),
        el('td', { 'data-label': 'When' }, r.description),
      ))),
    )),
  );
}

function quotaSection() {
  return section('quota-headers', 'Quota headers',
    el('p', {}, 'Every answer the gateway counted carries what is left, so a client can slow down before it is refused.'),
    el('dl', { class: 'headers' }, QUOTA_HEADERS.map(([name, what]) => [el('dt', {}, name), el('dd', {}, what)])),
  );
}

function plansSection(api, entry, features, ctx) {
  if (!entry) return section('plans', 'Plans', el('p', { class: 'muted' }, 'This API has no plans on this gateway.'));
  return section('plans', 'Plans',
    el('div', { class: 'scroll' }, planTable(entry, features)),
    el('p', { class: 'playground' }, entry.playground_per_day > 0 ? `Playground: ${int(entry.playground_per_day)} test calls a day without a subscription.` : 'No playground: subscribe to a plan (the free plan is at once) to call it.'),
    features ? el('p', { class: 'hint' }, `A plan’s features are checked by the ${api} service on every call; the playground gets the cheapest plan’s.`) : null,
    el('p', {}, el('a', { href: ctx.pathOf('subscriptions') }, 'Subscribe'), ' or ', el('a', { href: ctx.pathOf('keys') }, 'get a key'), ' (signing in with your email is enough).'),
  );
}

function clientSection(api, doc, ops, ctx) {
  const text = typeScriptClient(doc, ops, location.origin, ctx.keyHeader);
  const status = statusRegion();
  const download = el('a', { class: 'button secondary', href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })), download: `${api}-client.ts` }, `Download ${api}-client.ts`);
  return section('typescript', 'TypeScript client',
    el('p', {}, 'Types for every parameter and answer of this API and one function per endpoint, generated here from the OpenAPI document (', el('a', { href: '/docs/openapi.json' }, '/docs/openapi.json'), '). No dependency: it uses the platform’s fetch (Node 18 or later, Deno, Bun, browsers).'),
    el('p', { class: 'row' }, download, el('button', { type: 'button', class: 'secondary', onclick: () => copyText(text, status, 'Client copied') }, 'Copy client')),
    status,
    el('details', { class: 'data' }, el('summary', {}, 'Show the client'), el('pre', { class: 'code', id: 'ts-client', tabindex: '0', 'aria-label': `${api}-client.ts` }, text)),
  );
}

/** One API's reference, from the merged OpenAPI document and the live plan table. Needs no account. */
export async function render(main, ctx) {
  const api = decodeURIComponent(location.pathname.split('/')[3] ?? '');
  const problem = errorRegion();
  const [doc, table] = await Promise.all([openApi(), plans().catch((err) => (showError(problem, err), []))]);
  const entry = table.find((e) => e.api === api);
  const name = `${apiTitle(api)} API reference`;
  document.title = `${name} · Tollgate developer portal`;
  main.append(heading(name), el('p', { class: 'lead' }, entry?.summary ?? ''), problem);
  const ops = operationsOf(doc, api);
  if (ops.length === 0) throw new Error(`The ${api} API’s endpoints are not known right now: its service’s reference could not be read. Try again in a minute.`);
  const tag = tagOf(doc, api);
  main.append(
    el('section', { class: 'card intro', 'aria-label': 'Calling it' },
      el('p', {}, 'Base URL: ', el('code', { class: 'base-url' }, `${location.origin}/${api}/v1`), '. Send your key in the ', el('code', {}, ctx.keyHeader), ' header; every answer is JSON in the Tollgate envelope.'),
      descriptionOf(entry) ?? (tag?.description ? el('p', { class: 'muted' }, tag.description) : null),
    ),
    el('nav', { class: 'card toc', 'aria-label': 'On this page' },
      el('h2', {}, 'On this page'),
      el('ul', { class: 'endpoints' },
        ops.map((op) => el('li', {}, el('a', { href: `#${op.anchor}` }, el('code', {}, 'GET ', op.path)), op.summary ? el('span', { class: 'muted' }, ` ${op.summary}`) : null)),
        [['errors', 'Errors'], ['quota-headers', 'Quota headers'], ['plans', 'Plans'], ['typescript', 'TypeScript client']].map(([id, text]) => el('li', {}, el('a', { href: `#${id}` }, text))),
      ),
    ),
  );
  const sections = [];
  const setLanguage = (language) => sections.forEach((s) => s.setLanguage(language));
  for (const op of ops) sections.push(endpointSection(doc, op, ctx, setLanguage));
  main.append(...sections.map((s) => s.section));
  setLanguage('curl');
  main.append(errorsSection(doc, ops), quotaSection(), plansSection(api, entry, tag?.['x-plan-features'], ctx), clientSection(api, doc, ops, ctx));
}
