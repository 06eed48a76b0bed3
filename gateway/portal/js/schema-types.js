// TypeScript declarations generated in the browser from the OpenAPI document's JSON Schemas, for the
// reference pages' typed client. It covers what the services' documents use (objects, arrays,
// enums, consts, type unions, local refs, oneOf/anyOf/allOf); anything else is `unknown`.
import { resolveRef } from './schema-sample.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const propertyName = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? JSON.stringify(value) : 'unknown');

/** A doc comment of a schema's description (never able to close itself early). */
function docComment(schema, pad) {
  const text = typeof schema.description === 'string' ? schema.description.replace(/\*\//g, '*\u2215').replace(/\s+/g, ' ').trim() : '';
  return text ? `${pad}/** ${text} */\n` : '';
}

function union(parts) {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0] : unique.map((p) => (p.includes('\n') || p.includes('&') ? `(${p})` : p)).join(' | ');
}

function objectType(schema, root, depth, pad) {
  const required = new Set(schema.required ?? []);
  const inner = `${pad}  `;
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, prop]) => `${docComment(resolveRef(prop, root), inner)}${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: ${typeOf(prop, root, depth + 1, inner)};`,
  );
  const extra = schema.additionalProperties;
  if (extra === true || (extra === undefined && lines.length === 0)) lines.push(`${inner}[key: string]: unknown;`);
  else if (extra && typeof extra === 'object') lines.push(`${inner}[key: string]: ${typeOf(extra, root, depth + 1, inner)};`);
  return lines.length ? `{\n${lines.join('\n')}\n${pad}}` : 'Record<string, never>';
}

function singleType(type, schema, root, depth, pad) {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items ?? {}, root, depth + 1, pad);
      return /^[A-Za-z0-9_$.<>]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      return objectType(schema, root, depth, pad);
    default:
      return 'unknown';
  }
}

/** The TypeScript type of `schema`; `#/components/schemas/X` refs become `X` (declared by {@link componentTypes}). */
export function typeOf(schema, root = {}, depth = 0, pad = '') {
  if (!schema || typeof schema !== 'object' || depth > 12) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.match(/^#\/components\/schemas\/([A-Za-z_$][A-Za-z0-9_$]*)$/)?.[1];
    return name ?? typeOf(resolveRef(schema, root), root, depth + 1, pad);
  }
  if (schema.const !== undefined) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants)) return union(variants.map((v) => typeOf(v, root, depth + 1, pad)));
  if (Array.isArray(schema.allOf)) return schema.allOf.map((v) => typeOf(v, root, depth + 1, pad)).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : schema.items ? ['array'] : [];
  if (types.length === 0) return 'unknown';
  return union(types.map((t) => singleType(t, schema, root, depth, pad)));
}

/** `export type Name = …;` for each schema of `components.schemas` that `text` mentions. */
export function componentTypes(doc, text) {
  return Object.entries(doc.components?.schemas ?? {})
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(text))
    .map(([name, schema]) => `${docComment(schema, '')}export type ${name} = ${typeOf(schema, doc)};\n`)
    .join('\n');
}

/** "GetV1Transfers" from an operation id such as "logs_getV1Transfers". */
export function typeName(operationId) {
  const bare = String(operationId).replace(/^[^_]*_/, '');
  return bare.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c) => c.toUpperCase());
}

/** The parameters of an operation as one object type (path and query alike, by name). */
export function parametersType(params, root) {
  if (params.length === 0) return 'Record<string, never>';
  const lines = params.map((p) => `${docComment(p, '  ')}  ${propertyName(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema ?? {}, root, 1, '  ')};`);
  return `{\n${lines.join('\n')}\n}`;
}
