import Ajv from 'ajv';
import type { ErrorObject, JSONSchemaType, SchemaObject } from 'ajv';
import { AppError } from './app-error';

/** JSON Schema of a route's query string: an object whose properties are its parameters. */
export type QuerySchema = SchemaObject & { type: 'object'; properties: Record<string, SchemaObject> };

/** The parsed query, typed by the caller. */
export type QueryParser<T> = (query: unknown) => T;

// One Ajv for all routes: query strings arrive as strings, so numbers and booleans are coerced;
// defaults fill absent parameters; every error is collected so the first can be reported well.
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: true });
ajv.addKeyword({ keyword: 'example' });

function describeRange(noun: string, schema: SchemaObject): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `${noun} of at least ${minimum}`;
  if (maximum !== undefined) return `${noun} of at most ${maximum}`;
  return noun;
}

function describeAllowed(schema: SchemaObject | undefined): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return describeRange('an integer', schema);
  if (schema.type === 'number') return describeRange('a number', schema);
  if (typeof schema.description === 'string') return schema.description;
  return undefined;
}

/** Turns one ajv error on an object of named values into the parameter it concerns and a message. */
export function describeError(
  error: ErrorObject,
  schema: QuerySchema,
  input: Record<string, unknown>,
): { parameter: string; message: string } {
  const names = Object.keys(schema.properties);
  if (error.keyword === 'additionalProperties') {
    const parameter = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = names.length ? `allowed parameters: ${names.join(', ')}` : 'this endpoint takes no parameters';
    return { parameter, message: `unknown parameter '${parameter}'; ${allowed}` };
  }
  if (error.keyword === 'required') {
    const parameter = String((error.params as { missingProperty: string }).missingProperty);
    const allowed = describeAllowed(schema.properties[parameter]);
    return { parameter, message: `${parameter} is required${allowed ? ` and must be ${allowed}` : ''}` };
  }
  const parameter = error.instancePath.split('/')[1] ?? '';
  // Express turns a repeated parameter into an array; say so rather than "must be string".
  if (Array.isArray(input[parameter])) return { parameter, message: `${parameter} must be given only once` };
  const allowed = describeAllowed(schema.properties[parameter]);
  return { parameter, message: allowed ? `${parameter} must be ${allowed}` : `${parameter} ${error.message ?? 'is invalid'}` };
}

// ajv's coercion reads a string as Number(string) does, so `Infinity`, `-Infinity` and `1e309`
// become numbers; its integer and range checks do not all run after coercion, so they get through.
function allowsNumber(schema: SchemaObject | undefined): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('number') || types.includes('integer')) return true;
  return ['anyOf', 'oneOf'].some((key) => Array.isArray(schema[key]) && (schema[key] as SchemaObject[]).some(allowsNumber));
}

function nonFiniteParameter(schema: QuerySchema, input: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value : [value];
    const numeric = Object.hasOwn(schema.properties, name) && allowsNumber(schema.properties[name]);
    if (values.some((v) => (typeof v === 'number' || (numeric && typeof v === 'string')) && isInfinite(v))) return name;
  }
  return undefined;
}

function isInfinite(value: string | number): boolean {
  const n = typeof value === 'number' ? value : value.trim() === '' ? 0 : Number(value);
  return !Number.isNaN(n) && !Number.isFinite(n);
}

function badRequest(parameter: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { details: { parameter } });
}

/**
 * Compiles a query schema once; the parser returns the coerced query with defaults, or throws
 * `BAD_REQUEST` naming the parameter and what it allows. Unknown parameters are rejected.
 *
 * @example
 * const parse = createQueryParser<{ base: string }>({ type: 'object', additionalProperties: false,
 *   properties: { base: { type: 'string', enum: ['usd', 'eur'], default: 'usd' } } });
 * const { base } = parse(req.query);
 */
export function createQueryParser<T>(schema: QuerySchema | JSONSchemaType<T>): QueryParser<T> {
  const query = schema as QuerySchema;
  const validate = ajv.compile({ additionalProperties: false, ...query });
  return (input) => {
    const original = { ...(input as Record<string, unknown>) };
    const copy: Record<string, unknown> = { ...original };
    const valid = validate(copy);
    const errors = valid ? [] : (validate.errors ?? []);
    // An unknown parameter is reported first: its name says more than any value check.
    const first = errors.find((e) => e.keyword === 'additionalProperties');
    const infinite = first ? undefined : (nonFiniteParameter(query, original) ?? nonFiniteParameter(query, copy));
    if (infinite !== undefined) throw badRequest(infinite, `${infinite} must be a finite number`);
    if (valid) return copy as T;
    const error = first ?? errors[0];
    const { parameter, message } = error ? describeError(error, query, original) : { parameter: '', message: 'invalid query' };
    throw badRequest(parameter, message);
  };
}
