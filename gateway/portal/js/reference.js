// What the reference pages, the catalogue's search and Try it's links read from the merged OpenAPI
// document: each operation of an API with its parameters, answers, example values and anchor.
import { parametersOf } from './schema-form.js';
import { resolveRef, sampleOf } from './schema-sample.js';
import { componentTypes, parametersType, typeName, typeOf } from './schema-types.js';
import { anchorOf, endpointsOf } from './endpoints.js';

/** The error codes an answer documents: its envelope's code enum, else the "CODE or CODE: …" of its description. */
function codesOf(response, doc) {
  const content = resolveRef(response, doc).content?.['application/json']?.schema;
  const schema = resolveRef(content, doc);
  const listed = resolveRef(schema.properties?.error, doc).properties?.code?.enum;
  if (Array.isArray(listed)) return listed.map(String);
  const named = String(response.description ?? '').match(/^([A-Z_]+(?: or [A-Z_]+)*)(?::|$)/);
  return named ? named[1].split(' or ') : [];
}

/** What the common codes mean, for the answers a service documents by code alone. */
const CODE_MEANINGS = {
  BAD_REQUEST: 'a parameter is missing or not valid: the message and details name it',
  FORBIDDEN: 'not allowed: the message says why and, for a feature or chain of a bigger plan, names the plan that has it',
  NOT_FOUND: 'nothing by that name',
  INTERNAL_ERROR: 'the service failed: retry, and quote x-request-id if it persists',
  UPSTREAM_UNAVAILABLE: 'the service’s source could not be reached (the call is refunded)',
  UPSTREAM_TIMEOUT: 'the service’s source did not answer in time (the call is refunded)',
};

/** An answer's description in words: its "CODE: " prefix dropped, or the codes' meanings when it is only codes. */
function meaningOf(description, codes) {
  const words = String(description).replace(/^[A-Z_]+(?: or [A-Z_]+)*(?:: |$)/, '');
  return words || codes.map((c) => CODE_MEANINGS[c] ?? c).join('; ');
}

/** A documented example of a parameter, or for a required one the simplest value its schema accepts. */
function exampleOf(param, doc) {
  const schema = resolveRef(param.schema ?? {}, doc);
  if (param.example !== undefined) return param.example;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  return param.required ? sampleOf(schema, doc) : undefined;
}

/** Every GET operation of `api`, ready to show. */
export function operationsOf(doc, api) {
  return endpointsOf(doc, api).map(({ path, summary, operation }) => {
    const params = parametersOf(path, operation);
    const statuses = Object.keys(operation.responses ?? {}).sort();
    const okStatus = statuses.find((s) => s.startsWith('2')) ?? '200';
    const ok = resolveRef(operation.responses?.[okStatus] ?? {}, doc);
    return {
      api,
      path,
      anchor: anchorOf(api, path),
      summary,
      description: operation.description ?? '',
      operationId: operation.operationId ?? `${api}_get${path}`,
      params,
      example: Object.fromEntries(params.map((p) => [p.name, exampleOf(p, doc)]).filter(([, value]) => value !== undefined)),
      okStatus,
      okSchema: ok.content?.['application/json']?.schema ?? {},
      responses: statuses.map((status) => {
        const codes = status.startsWith('2') ? [] : codesOf(operation.responses[status], doc);
        return { status, codes, description: meaningOf(resolveRef(operation.responses[status], doc).description ?? '', codes) };
      }),
    };
  });
}

/** The gateway URL of a call to `op` with `values` (path parameters put in place, the rest as the query). */
export function callUrl(origin, op, values) {
  const query = new URLSearchParams();
  let path = op.path;
  for (const p of op.params) {
    const value = values[p.name];
    if (value === undefined) continue;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else query.append(p.name, String(value));
  }
  const search = query.toString();
  return `${origin}${path}${search ? `?${search}` : ''}`;
}

/** Try it with this endpoint chosen and its example values filled in (`p.<name>` in the query). */
export function tryItHref(tryPath, op) {
  const query = new URLSearchParams({ api: op.api, path: op.path });
  for (const [name, value] of Object.entries(op.example)) query.append(`p.${name}`, String(value));
  return `${tryPath}?${query}`;
}

/** The example answer of an operation, made from its success schema. */
export function exampleResponse(doc, op) {
  return sampleOf(op.okSchema, doc);
}

/** The typed function (and its types) calling one operation, for the TypeScript snippet and the client file. */
export function typedFunction(doc, op, origin, keyHeader) {
  const name = typeName(op.operationId);
  const fn = name.charAt(0).toLowerCase() + name.slice(1);
  const pathParams = op.params.filter((p) => p.in === 'path').map((p) => p.name);
  const base = pathParams.reduce(
    (code, param) => code.replace(`{${param}}`, `" + encodeURIComponent(String(params[${JSON.stringify(param)}])) + "`),
    JSON.stringify(`${origin}${op.path}`),
  );
  const skip = pathParams.length ? ` && !${JSON.stringify(pathParams)}.includes(name)` : '';
  return `/** The parameters of GET ${op.path}. */
export type ${name}Params = ${parametersType(op.params, doc)};

/** The ${op.okStatus} answer of GET ${op.path}. */
export type ${name}Response = ${typeOf(op.okSchema, doc)};

/** GET ${op.path}: ${op.summary.replace(/\*\//g, '')}. Throws with the envelope's code and message on a refusal. */
export async function ${fn}(params: ${name}Params, key: string): Promise<${name}Response> {
  const url = new URL(${base});
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined${skip}) url.searchParams.set(name, String(value));
  }
  const res = await fetch(url, { headers: { ${JSON.stringify(keyHeader)}: key } });
  const body: unknown = await res.json();
  if (!res.ok) {
    const refusal = body as ErrorEnvelope;
    throw new Error(\`\${res.status} \${refusal.error.code}: \${refusal.message}\`);
  }
  return body as ${name}Response;
}
`;
}

const HEADER = '// Generated in the portal from this gateway\'s OpenAPI document (/docs/openapi.json).\n\n';

/** The TypeScript snippet of one operation: its types, its function and a call with the example values. */
export function typeScriptSnippet(doc, op, origin, keyHeader) {
  const name = typeName(op.operationId);
  const fn = name.charAt(0).toLowerCase() + name.slice(1);
  const body = typedFunction(doc, op, origin, keyHeader);
  return `${HEADER}${componentTypes(doc, `ErrorEnvelope ${body}`)}\n${body}\nconst answer = await ${fn}(${JSON.stringify(op.example)}, process.env.TOLLGATE_KEY ?? '');\nconsole.log(answer);\n`;
}

/** A client module for every operation of an API (types and one function each), to download. */
export function typeScriptClient(doc, ops, origin, keyHeader) {
  const body = ops.map((op) => typedFunction(doc, op, origin, keyHeader)).join('\n');
  return `${HEADER}${componentTypes(doc, `ErrorEnvelope ${body}`)}\n${body}`;
}

