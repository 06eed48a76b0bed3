// Example values made from JSON Schemas, for the reference pages' example responses and the
// parameters a Try-it link fills in. A documented example, const, default or enum always wins;
// otherwise the value is the simplest one the schema accepts.

const FORMATS = { 'date-time': '2026-01-01T00:00:00.000Z', date: '2026-01-01', email: 'you@example.com', uri: 'https://example.com/' };

/** The schema a local `$ref` (`#/components/schemas/X`) points to in `root`, or the schema itself. */
export function resolveRef(schema, root) {
  if (typeof schema?.$ref !== 'string' || !schema.$ref.startsWith('#/')) return schema ?? {};
  const target = schema.$ref.slice(2).split('/').reduce((node, key) => node?.[key], root);
  return target ?? {};
}

/** The first type of a schema that is not null (`["integer", "null"]` is an integer). */
export function mainType(schema) {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? 'null';
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** A documented example of the schema (example, examples[0], const, default, first enum value), if any. */
export function documentedExample(schema) {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  return undefined;
}

// One string a simple pattern accepts: literals, \d, classes and {n}, {n,m}, ?, *, + quantifiers.
// Anything else (groups, look-arounds, alternation) gives up, and so does a result the pattern refuses.
function patternSample(pattern) {
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  let out = '';
  const atom = /\\d|\\(.)|\[(\^?)([^\]]*)\]|([^\\[\]()|^$.*+?{}])/y;
  const quantifier = /\{(\d+)(?:,(\d*))?\}|([?*+])/y;
  let at = 0;
  while (at < body.length) {
    atom.lastIndex = at;
    const m = atom.exec(body);
    if (!m) return undefined;
    at = atom.lastIndex;
    let char;
    if (m[0] === '\\d') char = '0';
    else if (m[1] !== undefined) char = m[1];
    else if (m[3] !== undefined) {
      if (m[2]) return undefined;
      char = m[3].startsWith('\\d') ? '0' : m[3][0];
    } else char = m[4];
    quantifier.lastIndex = at;
    const q = quantifier.exec(body);
    let times = 1;
    if (q) {
      at = quantifier.lastIndex;
      times = q[1] !== undefined ? Number(q[1]) : q[3] === '?' ? 0 : 1;
    }
    out += char.repeat(times);
  }
  try {
    return new RegExp(pattern, 'u').test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

function stringSample(schema) {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  const fromPattern = typeof schema.pattern === 'string' ? patternSample(schema.pattern) : undefined;
  if (fromPattern !== undefined) return fromPattern;
  const text = 'string';
  return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length);
}

/** An example value of `schema` (resolving local refs in `root`); `depth` stops self-referencing schemas. */
export function sampleOf(schema, root = {}, depth = 0) {
  const s = resolveRef(schema, root);
  const documented = documentedExample(s);
  if (documented !== undefined) return documented;
  if (depth > 12) return null;
  const variants = s.oneOf ?? s.anyOf;
  if (Array.isArray(variants) && variants.length) return sampleOf(variants[0], root, depth + 1);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => sampleOf(part, root, depth + 1)));
  switch (mainType(s)) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, prop]) => [name, sampleOf(prop, root, depth + 1)]));
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sampleOf(s.items ?? {}, root, depth + 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
    case 'boolean':
      return true;
    case 'string':
      return stringSample(s);
    case 'null':
      return null;
    default:
      return null;
  }
}
