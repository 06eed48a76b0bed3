import { el, heading } from '../../shared/dom.js';
import { inlineMarkdown as md } from '../../shared/markdown.js';
import { ApiError, signInHref } from '../api.js';

export const title = 'API reference';

const METHODS = ['get', 'post', 'put', 'delete'];
const anchor = (method, path) => `${method}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
const typeOf = (schema) => (schema?.enum ? `one of ${schema.enum.join(', ')}` : [].concat(schema?.type ?? (schema?.const !== undefined ? `always ${schema.const}` : 'object')).join(' or '));

function fieldsTable(caption, rows) {
  return el('div', { class: 'scroll' }, el('table', { class: 'fields stacked' },
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ['Name', 'In', 'Type', 'Required', 'Description'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((r) => el('tr', {},
      el('th', { scope: 'row', 'data-label': 'Name' }, el('code', {}, r.name)),
      el('td', { 'data-label': 'In' }, r.in),
      el('td', { 'data-label': 'Type' }, r.type),
      el('td', { 'data-label': 'Required' }, r.required ? 'yes' : 'no'),
      el('td', { 'data-label': 'Description' }, md(r.description)),
    ))),
  ));
}

function operation(method, path, op) {
  const params = (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, type: typeOf(p.schema), required: p.required, description: p.description ?? p.schema?.description }));
  const body = op.requestBody?.content?.['application/json']?.schema;
  const bodyRows = Object.entries(body?.properties ?? {}).map(([name, schema]) => ({ name, in: 'body', type: typeOf(schema), required: (body.required ?? []).includes(name), description: schema.description }));
  const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'));
  const errors = Object.entries(op.responses ?? {}).filter(([status]) => !status.startsWith('2'));
  return el('section', { class: 'card operation', id: anchor(method, path), 'aria-labelledby': `${anchor(method, path)}-title` },
    el('h2', { id: `${anchor(method, path)}-title` }, el('span', { class: `method ${method}` }, method.toUpperCase()), ' ', el('code', {}, path)),
    el('p', {}, md(op.summary)),
    op.description ? el('p', { class: 'muted' }, md(op.description)) : null,
    params.length || bodyRows.length ? fieldsTable('Parameters', [...params, ...bodyRows]) : el('p', { class: 'muted' }, 'No parameters.'),
    el('p', {}, el('strong', {}, 'Answers: '), ok ? md(`${ok[0]} ${ok[1].description}`) : '', errors.length ? md(`; refusals ${errors.map(([status, r]) => `${status} (${r.description})`).join(', ')}`) : ''),
  );
}

/** The admin API, from the operators' OpenAPI document (/admin/docs/openapi.json), as plain sections. */
export async function render(main) {
  const res = await fetch('/admin/docs/openapi.json', { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
  if (res.status === 401) {
    location.assign(signInHref());
    return;
  }
  if (!res.ok) throw new ApiError(`The reference could not be loaded (${res.status}).`);
  const doc = await res.json();
  const ops = Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m, path, op: item[m] })));
  main.append(
    heading(title),
    el('p', { class: 'lead' }, md(doc.info.description)),
    el('p', {}, el('a', { href: '/admin/docs/openapi.json', download: 'tollgate-admin-openapi.json' }, 'The OpenAPI 3.1 document')),
    el('nav', { 'aria-label': 'Routes', class: 'toc' }, el('ul', {}, ops.map(({ method, path, op }) => el('li', {}, el('a', { href: `#${anchor(method, path)}` }, `${method.toUpperCase()} ${path}`), ' ', md(op.summary))))),
    ...ops.map(({ method, path, op }) => operation(method, path, op)),
  );
}
