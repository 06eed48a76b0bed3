import { copyText, el, fill, statusRegion } from '../../shared/dom.js';
import { callUrl, exampleResponse, tryItHref, typeScriptSnippet } from '../reference.js';
import { documentedExample, mainType, resolveRef } from '../schema-sample.js';
import { snippets } from '../snippets.js';

/** The snippet languages, in the order shown. */
export const LANGUAGES = [
  ['curl', 'curl'],
  ['fetch', 'JavaScript fetch'],
  ['python', 'Python requests'],
  ['go', 'Go net/http'],
  ['typescript', 'TypeScript, typed'],
];

const show = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A parameter's type as a reader says it: `integer`, `string | null`, `array of string`. */
function typeText(schema) {
  const types = Array.isArray(schema.type) ? schema.type : [mainType(schema) ?? 'any'];
  return types.map((t) => (t === 'array' ? `array of ${mainType(schema.items ?? {}) ?? 'any'}` : t)).join(' | ');
}

/** What a parameter's schema allows beyond its type: range, length, pattern, listed values, default. */
function limitsOf(schema) {
  const out = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined) out.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) out.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) out.push(`at most ${schema.maximum}`);
  const { minLength: least, maxLength: most } = schema;
  // A bare minimum of 1 only says "not empty", which every required value is: left out.
  if (least !== undefined && most !== undefined) out.push(least === most ? `${most} characters` : `${least} to ${most} characters`);
  else if (most !== undefined) out.push(`up to ${most} characters`);
  else if (least !== undefined && least > 1) out.push(`at least ${least} characters`);
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map(show).join(', ')}`);
  if (schema.pattern) out.push(el('span', {}, 'matches ', el('code', {}, schema.pattern)));
  if (schema.default !== undefined) out.push(`default ${show(schema.default)}`);
  return out.length ? out.flatMap((part, i) => (i ? ['; ', part] : [part])) : '—';
}

function parameterTable(op, doc) {
  if (op.params.length === 0) return el('p', { class: 'muted' }, 'No parameters.');
  const heads = ['In', 'Type', 'Required', 'Limits', 'Example', 'Description'];
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked params-table' },
    el('caption', { class: 'visually-hidden' }, `Parameters of GET ${op.path}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Name'), heads.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, op.params.map((p) => {
      const schema = resolveRef(p.schema ?? {}, doc);
      const example = op.example[p.name] ?? schema.example ?? documentedExample(schema);
      return el('tr', {},
        el('th', { scope: 'row', 'data-label': 'Name' }, el('code', {}, p.name)),
        el('td', { 'data-label': heads[0] }, p.in),
        el('td', { 'data-label': heads[1] }, typeText(schema)),
        el('td', { 'data-label': heads[2] }, p.required ? 'required' : 'optional'),
        el('td', { 'data-label': heads[3] }, limitsOf(schema)),
        el('td', { 'data-label': heads[4], class: 'example' }, example === undefined ? '—' : el('code', {}, show(example))),
        el('td', { 'data-label': heads[5] }, p.description ?? schema.description ?? ''),
      );
    })),
  ));
}

/** The answers an endpoint documents: status, codes and what each means, linked to the page's error table. */
function answers(op) {
  return el('ul', { class: 'answers' }, op.responses.map((r) => el('li', {},
    el('strong', {}, r.status), ' ',
    r.codes.length ? [r.codes.map((c, i) => [i ? ', ' : '', el('code', {}, c)]), ' '] : null,
    el('span', { class: 'muted' }, r.description),
  )), el('li', { class: 'muted' }, 'Every refusal is the error envelope: see ', el('a', { href: '#errors' }, 'Errors'), '.'));
}

/** The code block, its language choice and its copy button; `onLanguage` keeps every endpoint on the same language. */
function snippetBox(op, code, onLanguage) {
  const name = `lang-${op.anchor}`;
  const pre = el('pre', { class: 'code snippet', tabindex: '0', 'aria-label': `Code for GET ${op.path}` });
  const status = statusRegion();
  const choice = el('fieldset', { class: 'segmented' }, el('legend', {}, 'Language'),
    LANGUAGES.map(([value, label]) => el('label', {}, el('input', { type: 'radio', name, value }), label)));
  const set = (language) => {
    choice.querySelector(`input[value="${language}"]`).checked = true;
    pre.dataset.language = language;
    pre.textContent = code(language);
  };
  choice.addEventListener('change', () => onLanguage(choice.querySelector('input:checked').value));
  const copy = el('button', { type: 'button', class: 'secondary', onclick: () => copyText(pre.textContent, status, 'Code copied') }, 'Copy code');
  return { node: el('div', { class: 'snippet-box' }, choice, pre, copy, status), set };
}

/** One endpoint: what it does, its parameters, Try it, code in five languages, an example answer and its answers. */
export function endpointSection(doc, op, ctx, onLanguage) {
  const url = callUrl(location.origin, op, op.example);
  const code = (language) => (language === 'typescript' ? typeScriptSnippet(doc, op, location.origin, ctx.keyHeader) : snippets(url, ctx.keyHeader)[language]);
  const box = snippetBox(op, code, onLanguage);
  const example = el('pre', { class: 'code', tabindex: '0', 'aria-label': `Example answer of GET ${op.path}` });
  fill(example, JSON.stringify(exampleResponse(doc, op), null, 2));
  const section = el('section', { class: 'card endpoint', 'aria-labelledby': op.anchor },
    el('h2', { id: op.anchor, tabindex: '-1' }, el('code', {}, 'GET ', op.path)),
    el('p', {}, op.summary, op.summary ? '. ' : '', op.description),
    el('p', { class: 'row' },
      el('a', { class: 'button', href: tryItHref(ctx.pathOf('try-it'), op), 'aria-label': `Try it: GET ${op.path}` }, 'Try it'),
      el('a', { href: `#${op.anchor}`, class: 'permalink', 'aria-label': `Permalink to GET ${op.path}` }, 'Permalink'),
    ),
    el('h3', {}, 'Parameters'),
    parameterTable(op, doc),
    el('h3', {}, 'Code'),
    el('p', { class: 'hint' }, 'Set TOLLGATE_KEY in your environment: the code never contains a secret.'),
    box.node,
    el('h3', {}, `Example answer (${op.okStatus})`),
    el('p', { class: 'hint' }, 'Made from the answer’s schema: the fields and their types are real, the values stand in.'),
    example,
    el('h3', {}, 'Answers'),
    answers(op),
  );
  return { section, setLanguage: box.set };
}
