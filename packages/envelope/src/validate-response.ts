import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { STATUS_BY_CODE } from './app-error';
import { errorEnvelopeSchema, okEnvelopeSchema } from './route-doc';
import type { RouteDoc } from './route-doc';

// Annotations such as `example` are welcome in documentation schemas, hence not strict.
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new WeakMap<RouteDoc, { ok: ValidateFunction; error: ValidateFunction }>();

function validatorsOf(route: RouteDoc) {
  let entry = compiled.get(route);
  if (!entry) {
    entry = { ok: ajv.compile(okEnvelopeSchema(route.data, route.message)), error: ajv.compile(errorEnvelopeSchema(route.errors)) };
    compiled.set(route, entry);
  }
  return entry;
}

/**
 * Checks a response against its route's documented schema (contract tests); returns the
 * mismatches, empty when the response is as documented.
 *
 * @example
 * expect(validateResponse(indexRoute, res.status, res.body)).toEqual([]);
 */
export function validateResponse(route: RouteDoc, status: number, body: unknown): string[] {
  const { ok, error } = validatorsOf(route);
  const success = status === (route.successStatus ?? 200);
  const validate = success ? ok : error;
  const problems = validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  if (!success) {
    const documented = route.errors.some((code) => STATUS_BY_CODE[code] === status);
    if (!documented) problems.push(`status ${status} is not documented for ${route.method.toUpperCase()} ${route.path}`);
  }
  return problems;
}
