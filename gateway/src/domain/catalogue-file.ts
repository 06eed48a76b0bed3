import { createHash } from 'node:crypto';
import Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { LineCounter, isCollection, isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Document } from 'yaml';
import type { Catalogue, CatalogueApi, CataloguePlan, ForwardableHeader } from './catalogue';
import { CATALOGUE_SCHEMA, RESERVED_API_NAMES } from './catalogue-schema';
import { renderMarkdown } from './markdown';
import { NAME } from './plans-file';
import { shownName } from './shown-name';

/** What a catalogue file leaves to the gateway's settings. */
export interface CatalogueDefaults {
  /** `UPSTREAM_TIMEOUT_MS`. */
  timeoutMs: number;
  /** `UPSTREAM_MAX_SOCKETS`. */
  maxConnections: number;
}

/** How a catalogue file is written: JSON (`.json`) or YAML (anything else). */
export type CatalogueFormat = 'json' | 'yaml';

// A catalogue describes a handful of APIs; a file this large is a mistake, not a catalogue.
const MAX_BYTES = 1_000_000;

/** The file as written, before defaults. */
interface FileApi {
  title: string;
  summary: string;
  description?: string;
  upstream: string;
  openapi?: string;
  health?: string;
  listed?: boolean;
  playground_per_day?: number;
  plans: Record<string, Omit<CataloguePlan, 'features' | 'offered'> & Partial<Pick<CataloguePlan, 'features' | 'offered'>>>;
  proxy?: { timeout_ms?: number; max_connections?: number; forward_headers?: ForwardableHeader[]; forward_set_cookie?: boolean };
}

const validate = new Ajv({ allErrors: false, strict: true }).compile<{ apis: Record<string, FileApi> }>(CATALOGUE_SCHEMA);

/** The format a file's name says. */
export const formatOf = (file: string): CatalogueFormat => (/\.json$/i.test(file) ? 'json' : 'yaml');

/**
 * Where a path of the document is written, as `line N` (1-based): the line of its key (an API's
 * name, a setting's), or of the nearest written parent for a missing one.
 */
function lineOf(doc: Document, counter: LineCounter, segments: string[]): string {
  for (let n = segments.length; n > 0; n--) {
    const parent = doc.getIn(segments.slice(0, n - 1), true);
    const pair = isMap(parent) ? parent.items.find((item) => isScalar(item.key) && String(item.key.value) === segments[n - 1]) : undefined;
    const range = isScalar(pair?.key) ? pair.key.range : (isSeq(parent) ? (parent.items[Number(segments[n - 1])] as { range?: [number, number, number] } | undefined)?.range : undefined);
    if (range) return `line ${counter.linePos(range[0]).line}`;
  }
  return 'line 1';
}

/** One ajv error as words: where (a dotted path) and what is allowed. */
function describe(error: ErrorObject): { segments: string[]; message: string } {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const where = segments.length ? segments.map(shownName).join('.') : 'the top level';
  if (error.propertyName !== undefined) {
    const name = error.propertyName;
    const reserved = (RESERVED_API_NAMES as readonly string[]).includes(name);
    return { segments: [...segments, name], message: reserved ? `${where} names '${name}', which is one of the gateway's own paths (${RESERVED_API_NAMES.join(', ')}); choose another name` : `${where} has the name '${shownName(name)}'; names must match ${NAME}` };
  }
  switch (error.keyword) {
    case 'additionalProperties':
      return { segments: [...segments, String(error.params.additionalProperty)], message: `${where} has '${shownName(String(error.params.additionalProperty))}', which is not a setting here` };
    case 'required':
      return { segments, message: `${where} needs '${String(error.params.missingProperty)}'` };
    case 'enum':
      return { segments, message: `${where} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { segments, message: `${where} ${error.message ?? 'is invalid'}` };
  }
}

/** A path on the service (`/v1/openapi.json`) or a URL, as a URL. */
const resolve = (upstream: string, where: string): string => (/^https?:\/\//.test(where) ? where : `${upstream}${where}`);

function withDefaults(name: string, api: FileApi, defaults: CatalogueDefaults): CatalogueApi {
  const upstream = api.upstream.replace(/\/+$/, '');
  const description = api.description ?? '';
  return {
    name,
    title: api.title,
    summary: api.summary,
    description,
    description_html: renderMarkdown(description),
    upstream,
    openapi: resolve(upstream, api.openapi ?? '/v1/openapi.json'),
    health: resolve(upstream, api.health ?? '/readyz'),
    listed: api.listed ?? true,
    playground_per_day: api.playground_per_day ?? 0,
    plans: Object.fromEntries(Object.entries(api.plans).map(([plan, p]) => [plan, { monthly_quota: p.monthly_quota, rate_per_second: p.rate_per_second, price: p.price, currency: p.currency, features: p.features ?? [], offered: p.offered ?? true }])),
    proxy: {
      timeout_ms: api.proxy?.timeout_ms ?? defaults.timeoutMs,
      max_connections: api.proxy?.max_connections ?? defaults.maxConnections,
      forward_headers: api.proxy?.forward_headers ?? [],
      forward_set_cookie: api.proxy?.forward_set_cookie ?? false,
    },
  };
}

/**
 * Parses and validates a catalogue (JSON, or YAML 1.2 with its core schema), filling in the
 * defaults; throws an Error whose message is one line naming the source, the line and the place
 * in the file, and what is allowed.
 */
export function parseCatalogue(text: string, options: { source: string; format: CatalogueFormat; defaults: CatalogueDefaults }): Catalogue {
  const { source } = options;
  if (Buffer.byteLength(text) > MAX_BYTES) throw new Error(`${source} is over ${MAX_BYTES} bytes; a catalogue is a few kilobytes`);
  if (options.format === 'json') {
    try {
      JSON.parse(text);
    } catch (err) {
      throw new Error(`${source} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const counter = new LineCounter();
  // JSON is YAML 1.2, so one parser gives both formats their line numbers.
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: true, schema: 'core', version: '1.2' });
  const broken = doc.errors[0];
  if (broken) throw new Error(`${source}, line ${broken.linePos?.[0].line ?? 1}: ${broken.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`);
  // A mapping or a list as a key (YAML's `? …`) names nothing; toJS would make it a string of several lines (and warn).
  let collectionKey: number | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (!isCollection(pair.key)) return undefined;
      collectionKey = pair.key.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (collectionKey !== undefined) throw new Error(`${source}, line ${counter.linePos(collectionKey).line}: a key is a mapping or a list (written with '?'); keys are names`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    throw new Error(`${source}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!validate(value)) {
    const { segments, message } = describe(validate.errors?.[0] as ErrorObject);
    throw new Error(`${source}, ${lineOf(doc, counter, segments)}: ${message}`);
  }
  const apis = Object.fromEntries(Object.entries(value.apis).map(([name, api]) => [name, withDefaults(name, api, options.defaults)]));
  return { apis, source, digest: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}
