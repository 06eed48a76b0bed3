/**
 * Property-based checks of a Tollgate app against hostile and unusual HTTP: generated methods,
 * paths, headers, query strings and bodies, sent over a real socket to the app served as `serve()`
 * serves it. Each service's `test/http/hostile-requests.test.ts` runs it over its own routes.
 */
import type { Server } from 'node:http';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { STATUS_BY_CODE } from '../src/app-error';
import type { SchemaObject } from 'ajv';
import { errorEnvelopeSchema } from '../src/route-doc';
import type { RouteDoc } from '../src/route-doc';
import { createTimedServer } from '../src/serve';
import { validateResponse } from '../src/validate-response';
import type { QuerySchema } from '../src/validate-query';

/** Names every plain object inherits: as parameter names, or as values looked up in a table. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

/**
 * Every own property name of the built-in prototypes (Object, Function, Array, String, Number,
 * Boolean, Symbol, Date, RegExp, Error, Promise, Map, Set) and of a plain function, `__proto__`
 * included: what a lookup of a caller's name in a table must never match, whatever the table holds.
 */
export const EVERY_PROTOTYPE_NAME: readonly string[] = [
  ...new Set([
    '__proto__',
    ...[Object, Function, Array, String, Number, Boolean, Symbol, Date, RegExp, Error, Promise, Map, Set].flatMap((type) => Object.getOwnPropertyNames(type.prototype)),
    ...Object.getOwnPropertyNames(function named() {}),
  ]),
];

/** Numerals that are not plain finite numbers, or sit at the edges. */
export const HOSTILE_NUMBERS = ['Infinity', '-Infinity', '+Infinity', '1e309', '-1e309', 'NaN', '-0', '0', '-1', '1e21', '9'.repeat(400), '0x10', '1.5', ' 7 ', ''];

/** Text that has broken parsers and lookups elsewhere. */
export const HOSTILE_TEXT = ['ünïcödé', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u0000', '\u202e', '\ud800', '%00', '%', '../..', '<script>', 'a'.repeat(3000), ',,,', ':', '0d', '0w', '00000m'];

// GET most often: a hostile value has to reach a handler to find what it breaks.
const METHODS = ['get', 'get', 'get', 'get', 'get', 'get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;

const HEADER_CHOICES: Record<string, string[]> = {
  connection: ['close', 'keep-alive', 'Upgrade', 'x-custom, te', 'keep-alive, x-tollgate-subscription'],
  'keep-alive': ['timeout=5, max=100', 'nonsense'],
  te: ['trailers', 'gzip, chunked'],
  trailer: ['X-Foo', 'Content-Length'],
  upgrade: ['websocket', 'h2c', 'HTTP/2.0'],
  'proxy-authorization': ['Basic dXNlcjpwYXNz', 'Bearer x'],
  'x-tollgate-subscription': ['free', 'starter', 'pro', 'scale', 'business', 'FREE', ' pro ', '', ...PROTOTYPE_NAMES],
  'x-request-id': ['ok-1', 'x'.repeat(300), 'a b', '../etc'],
  accept: ['*/*', 'text/html', 'application/xml', ''],
  'content-type': ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'],
  'accept-encoding': ['gzip', 'br;q=1, *;q=0', 'identity'],
};

/** One generated request. */
export interface HostileRequest {
  method: (typeof METHODS)[number];
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** Also announced with Transfer-Encoding: chunked when `chunked`. */
  body?: string;
  chunked: boolean;
}

function encode(text: string): string {
  // A lone surrogate cannot be percent-encoded as UTF-8; send its replacement's bytes instead.
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
}

function pathVariants(path: string): fc.Arbitrary<string> {
  const segment = fc.constantFrom('.', '..', '%2e%2e', '%2F', '%00', '%0a', '%7f', '', 'ünï', '%C3%BC', '%ZZ', '__proto__', 'constructor', 'x'.repeat(4000));
  const raw = (s: string) => encodeURI(s).replace(/%25/g, '%');
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant(path) },
    { weight: 1, arbitrary: fc.constant(path.toUpperCase()) },
    { weight: 1, arbitrary: fc.constant(`${path}/`) },
    { weight: 1, arbitrary: fc.constant(`/${path}`) },
    { weight: 1, arbitrary: segment.map((s) => `${path}/${raw(s)}`) },
    { weight: 1, arbitrary: segment.map((s) => path.replace(/^\/([^/]+)\//, `/$1/${raw(s)}/../`)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${encode(s)}`) },
  );
}

// Values a parameter's own schema names: its enum, default and example.
function schemaValues(schema: SchemaObject | undefined): string[] {
  if (!schema) return [];
  const listed = [...(Array.isArray(schema.enum) ? schema.enum : []), schema.default, schema.example];
  return listed.filter((v) => v !== undefined && v !== null).map(String);
}

interface Target {
  path: string;
  names: string[];
  required: string[];
  query: QuerySchema | undefined;
}

function allowsNumber(schema: SchemaObject | undefined): boolean {
  const types: unknown[] = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  return types.includes('number') || types.includes('integer');
}

function valueFor(target: Target, name: string, values: HostileSuite['values']): fc.Arbitrary<string> {
  const schema = target.query?.properties[name];
  const byName = values as Readonly<Record<string, readonly string[]>>;
  const own: readonly string[] = Array.isArray(values) ? values : Object.hasOwn(byName, name) ? byName[name]! : Object.values(byName).flat();
  const good = [...new Set([...schemaValues(schema), ...own])];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...good) },
    { weight: allowsNumber(schema) ? 8 : 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 1, arbitrary: fc.integer({ min: -1_000, max: 2_000_000_000 }).map(String) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
  );
}

function queryArbitrary(target: Target, values: HostileSuite['values']): fc.Arbitrary<[string, string][]> {
  const names = target.names.length ? target.names : ['x'];
  const name = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => `${n}[]`) },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => `${n}[__proto__]`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const pair = (n: string) => valueFor(target, n, values).map((v): [string, string] => [n, v]);
  // Mostly a plausible query (the required parameters and a few of the route's own), so that each
  // value reaches the handler; sometimes with foreign, inherited or array-style names added.
  const required = fc.tuple(...target.required.map(pair));
  const own = fc.subarray(target.names, { maxLength: Math.min(3, target.names.length) }).chain((picked) => fc.tuple(...picked.map(pair)));
  // Repeats arise from picking one name twice: `a=1&a=2`.
  const junk = fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(name.chain(pair), { minLength: 1, maxLength: 4 }) });
  const keepRequired = fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  return fc.tuple(keepRequired, required, own, junk).map(([keep, req, mine, rest]) => [...(keep ? req : []), ...mine, ...rest]);
}

/** Options of {@link hostileRequestArbitrary} and {@link checkHostileRequests}. */
export interface HostileSuite {
  /** The documented routes: their paths are aimed at and their 200s checked against the schemas. */
  routes: readonly RouteDoc[];
  /** Other paths the app serves whose answer is not an envelope (e.g. `/v1/openapi.json`). */
  barePaths?: readonly string[];
  /**
   * Values worth trying besides the hostile ones (known ids, codes, edge cases), for every parameter
   * or by parameter name; a small list per name reaches the handler with its edge cases more often.
   */
  values: readonly string[] | Readonly<Record<string, readonly string[]>>;
  /** 5xx statuses the suite provokes on purpose (an upstream made to fail); anything else fails it. */
  allowedServerErrors?: readonly number[];
  /** Headers every request carries (e.g. the proxy secret). */
  headers?: Record<string, string>;
  numRuns?: number;
}

function targetsOf(suite: HostileSuite): Target[] {
  return [
    ...suite.routes.map((r) => ({ path: r.path, names: Object.keys(r.query?.properties ?? {}), required: (r.query?.required as string[] | undefined) ?? [], query: r.query })),
    ...(suite.barePaths ?? []).map((path) => ({ path, names: [], required: [], query: undefined })),
  ];
}

/** Generated requests aimed at a service's routes. */
export function hostileRequestArbitrary(suite: HostileSuite): fc.Arbitrary<HostileRequest> {
  const targets = targetsOf(suite);
  const headerNames = Object.keys(HEADER_CHOICES);
  const headers = fc
    .subarray(headerNames, { maxLength: 4 })
    .chain((picked) => fc.tuple(...picked.map((h) => fc.constantFrom(...HEADER_CHOICES[h]!).map((v) => [h, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));
  const values = Array.isArray(suite.values) && suite.values.length === 0 ? ['x'] : suite.values;
  return fc.constantFrom(...targets).chain((target) =>
    fc.record({
      method: fc.constantFrom(...METHODS),
      path: pathVariants(target.path),
      query: queryArbitrary(target, values),
      headers,
      body: fc.option(fc.oneof(fc.json(), fc.string({ maxLength: 200 }), fc.constant('x'.repeat(20_000))), { nil: undefined }),
      chunked: fc.boolean(),
    }),
  );
}

function routeOf(routes: readonly RouteDoc[], path: string): RouteDoc | undefined {
  // As Express matches: case-insensitive, one trailing slash allowed.
  const wanted = path.split('?')[0]!.toLowerCase().replace(/(.)\/$/, '$1');
  return routes.find((r) => r.path.toLowerCase() === wanted);
}

const ajv = new Ajv({ strict: false });
addFormats(ajv);
const isErrorEnvelope = ajv.compile(errorEnvelopeSchema());
const KNOWN_STATUSES = new Set(Object.values(STATUS_BY_CODE));

/** What is wrong with one answer; empty when it holds every invariant. */
export function problemsOf(suite: HostileSuite, req: HostileRequest, res: request.Response): string[] {
  const problems: string[] = [];
  const bodyless = req.method === 'head';
  if (res.status >= 500 && !(suite.allowedServerErrors ?? []).includes(res.status)) problems.push(`status ${res.status}`);
  const readOnly = req.method === 'get' || req.method === 'head';
  const route = routeOf(suite.routes, req.path);
  // superagent sends Content-Length beside Transfer-Encoding: chunked, which the server must refuse (400).
  const smuggling = req.chunked && req.body !== undefined && res.status === 400;
  if (!readOnly && route && res.status !== 405 && !smuggling) problems.push(`${req.method.toUpperCase()} on a route answered ${res.status}, not 405`);
  if (res.status >= 200 && res.status < 300) {
    if (!readOnly) problems.push(`2xx for ${req.method.toUpperCase()}`);
    if (route && !bodyless && req.method === 'get') problems.push(...validateResponse(route, res.status, res.body));
    if (!route && !(suite.barePaths ?? []).some((p) => p.toLowerCase() === req.path.toLowerCase().replace(/(.)\/$/, '$1'))) {
      problems.push(`2xx for an undocumented path ${req.path}`);
    }
  } else {
    if (!KNOWN_STATUSES.has(res.status)) problems.push(`status ${res.status} is not in the code table`);
    if (!bodyless && !isErrorEnvelope(res.body)) problems.push(`not the error envelope: ${String(res.text).slice(0, 200)}`);
    if (res.status === 405 && res.headers.allow !== 'GET, HEAD') problems.push(`405 without Allow: GET, HEAD`);
  }
  return problems;
}

async function send(server: Server, req: HostileRequest, suite: HostileSuite): Promise<request.Response> {
  const query = req.query.map(([n, v]) => `${encode(n)}=${encode(v)}`).join('&');
  let call = request(server)[req.method](query ? `${req.path}?${query}` : req.path);
  const withBody = req.body !== undefined && req.method !== 'get' && req.method !== 'head';
  const chunked = withBody && req.chunked;
  for (const [name, value] of Object.entries({ ...req.headers, ...suite.headers })) {
    // Node's client refuses to announce trailers on a message that cannot carry them.
    if (name !== 'trailer' || chunked) call = call.set(name, value);
  }
  if (withBody) {
    if (chunked) call = call.set('transfer-encoding', 'chunked').unset('content-length');
    call = call.send(req.body);
  }
  return call.timeout({ response: 10_000 }).ok(() => true);
}

async function withServer<T>(app: Express, run: (server: Server) => Promise<T>): Promise<T> {
  const server = createTimedServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run(server);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function describeFailure(req: HostileRequest, res: request.Response, problems: string[]): string {
  const query = req.query.map(([n, v]) => `${n}=${v.length > 40 ? `${v.slice(0, 40)}…` : v}`).join('&');
  return `${req.method.toUpperCase()} ${req.path}${query ? `?${query}` : ''} → ${res.status}: ${problems.join('; ')} (${String(res.body?.message ?? '').slice(0, 200)})`;
}

/**
 * Every hostile value (non-finite and edge numbers, inherited names, odd text) in every parameter
 * of every route, the other required parameters holding their first plausible value; then every
 * inherited and array-style name as a parameter, every parameter given twice, and every listed
 * header value (hop-by-hop names, plan names, request ids). Deterministic, where the property run samples.
 */
export async function sweepHostileValues(app: Express, suite: HostileSuite): Promise<void> {
  const targets = targetsOf(suite).filter((t) => t.query);
  const hostile = [...new Set([...HOSTILE_NUMBERS, ...PROTOTYPE_NAMES, ...HOSTILE_TEXT])];
  const requests: HostileRequest[] = [];
  for (const target of targets) {
    const plausible = (name: string): string => {
      const byName = suite.values as Readonly<Record<string, readonly string[]>>;
      const own = Array.isArray(suite.values) ? [] : Object.hasOwn(byName, name) ? byName[name]! : [];
      return [...schemaValues(target.query?.properties[name]), ...own][0] ?? '1';
    };
    const base = target.required.map((n): [string, string] => [n, plausible(n)]);
    for (const name of target.names) {
      for (const value of hostile) {
        requests.push({ method: 'get', path: target.path, query: [...base.filter(([n]) => n !== name), [name, value]], headers: {}, chunked: false });
      }
    }
    for (const name of [...PROTOTYPE_NAMES, ...target.names.flatMap((n) => [`${n}[]`, `${n}[__proto__]`])]) {
      requests.push({ method: 'get', path: target.path, query: [...base, [name, '1']], headers: {}, chunked: false });
    }
    for (const name of target.names) {
      requests.push({ method: 'get', path: target.path, query: [...base.filter(([n]) => n !== name), [name, plausible(name)], [name, plausible(name)]], headers: {}, chunked: false });
    }
    for (const [header, values] of Object.entries(HEADER_CHOICES)) {
      for (const value of values) {
        if (header !== 'trailer') requests.push({ method: 'get', path: target.path, query: base, headers: { [header]: value }, chunked: false });
      }
    }
  }
  const failures = await withServer(app, async (server) => {
    const found: string[] = [];
    for (const req of requests) {
      const res = await send(server, req, suite);
      const problems = problemsOf(suite, req, res);
      if (problems.length) found.push(describeFailure(req, res, problems));
    }
    return found;
  });
  if (failures.length) throw new Error(`${failures.length} of ${requests.length} answers break the invariants:\n${failures.slice(0, 20).join('\n')}`);
}

/**
 * Runs the generated requests against the app served on a real socket, as `serve()` serves it, and
 * fails with fast-check's counterexample and seed (re-run with `FC_SEED=<seed>`) when an answer is a
 * 5xx not provoked on purpose, a non-2xx outside the error envelope, a 200 outside its route's
 * schema, or no answer at all.
 */
export async function checkHostileRequests(app: Express, suite: HostileSuite): Promise<void> {
  const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
  await withServer(app, (server) =>
    fc.assert(
      fc.asyncProperty(hostileRequestArbitrary(suite), async (req) => {
        const res = await send(server, req, suite);
        const problems = problemsOf(suite, req, res);
        if (problems.length) throw new Error(describeFailure(req, res, problems));
      }),
      { numRuns: suite.numRuns ?? 250, seed },
    ),
  );
}
