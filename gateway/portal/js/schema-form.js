import { el } from '../shared/dom.js';

/** The parameters of an OpenAPI operation on `path`, path ones from the template when undocumented. */
export function parametersOf(path, operation) {
  const listed = (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
  const named = new Set(listed.filter((p) => p.in === 'path').map((p) => p.name));
  const fromTemplate = [...path.matchAll(/\{([^}]+)\}/g)].filter((m) => !named.has(m[1])).map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  return [...fromTemplate, ...listed];
}

function inputFor(param, id) {
  const schema = param.schema ?? {};
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const common = { id, name: param.name, 'data-in': param.in, required: param.required || undefined, 'aria-describedby': param.description ? `${id}-help` : undefined };
  if (Array.isArray(schema.enum) || type === 'boolean') {
    const values = type === 'boolean' ? ['true', 'false'] : schema.enum.map(String);
    const select = el('select', common, param.required ? null : el('option', { value: '' }, '(not sent)'), values.map((v) => el('option', { value: v }, v)));
    if (schema.default !== undefined) select.value = String(schema.default);
    return select;
  }
  if (type === 'integer' || type === 'number') {
    return el('input', { ...common, type: 'number', inputmode: type === 'integer' ? 'numeric' : 'decimal', step: type === 'integer' ? '1' : 'any', min: schema.minimum, max: schema.maximum, placeholder: schema.default !== undefined ? String(schema.default) : undefined });
  }
  // A required parameter starts with its documented example (a value that works, such as the logs
  // API's chain), so the first Send succeeds; an optional one only shows it.
  const example = schema.example === undefined ? undefined : String(schema.example);
  return el('input', { ...common, type: 'text', autocomplete: 'off', spellcheck: 'false', pattern: schema.pattern, maxlength: schema.maxLength, value: param.required ? example : undefined, placeholder: example ?? (schema.default !== undefined ? String(schema.default) : undefined) });
}

/** A field per parameter (label, input from its schema, its description as help). */
export function parameterFields(params, idPrefix) {
  return params.map((param, i) => {
    const id = `${idPrefix}-${i}`;
    return el('div', { class: 'field' },
      el('label', { for: id }, el('code', {}, param.name), ` (${param.in}${param.required ? ', required' : ''})`),
      inputFor(param, id),
      param.description ? el('span', { id: `${id}-help`, class: 'hint' }, param.description) : null,
    );
  });
}

function missing(message, input) {
  return Object.assign(new Error(message), { field: input });
}

/** The URL the form describes, or throws naming a required parameter left empty (`err.field` is its input). */
export function buildUrl(path, form) {
  const query = new URLSearchParams();
  let filled = path;
  for (const input of form.querySelectorAll('[data-in]')) {
    const value = input.value.trim();
    if (input.dataset.in === 'path') {
      if (!value) throw missing(`Fill in ${input.name}: it is part of the path.`, input);
      filled = filled.replace(`{${input.name}}`, encodeURIComponent(value));
    } else if (value) query.append(input.name, value);
    else if (input.required) throw missing(`Fill in ${input.name}: it is required.`, input);
  }
  const search = query.toString();
  return `${filled}${search ? `?${search}` : ''}`;
}

/** Puts `values` (name → text) into the form's parameter fields; fields not named keep what they have. */
export function fillFields(form, values) {
  for (const input of form.querySelectorAll('[data-in]')) if (values.has(input.name)) input.value = values.get(input.name);
}
