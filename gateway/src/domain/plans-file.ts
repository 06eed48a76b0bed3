import Ajv from 'ajv';
import type { JSONSchemaType } from 'ajv';
import type { Plan, PlanTable } from './plans';
import { shownName } from './shown-name';

// The file's shape: limits and prices alone (a catalogue says more of a plan: catalogue-file.ts).
type FilePlan = Omit<Plan, 'offered'>;
interface FileApiPlans {
  playground_per_day: number;
  plans: Record<string, FilePlan>;
}

// Names end up in Redis script arguments, stored subscription fields and response headers, so
// they are kept to a small safe alphabet.
export const NAME = '^[a-z][a-z0-9_-]{0,31}$';

// The per-second limiter keeps one sorted-set entry per admitted call in the last second, so the
// rate is capped where that stays cheap.
export const MAX_RATE_PER_SECOND = 10_000;

const planSchema: JSONSchemaType<FilePlan> = {
  type: 'object',
  additionalProperties: false,
  required: ['monthly_quota', 'rate_per_second', 'price', 'currency'],
  properties: {
    monthly_quota: { type: 'integer', minimum: 1 },
    rate_per_second: { type: 'integer', minimum: 1, maximum: MAX_RATE_PER_SECOND },
    price: { type: 'integer', minimum: 0 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
};

const apiSchema: JSONSchemaType<FileApiPlans> = {
  type: 'object',
  additionalProperties: false,
  required: ['playground_per_day', 'plans'],
  properties: {
    playground_per_day: { type: 'integer', minimum: 0 },
    plans: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: NAME },
      required: [],
      additionalProperties: planSchema,
    },
  },
};

const tableSchema: JSONSchemaType<Record<string, FileApiPlans>> = {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: NAME },
  required: [],
  additionalProperties: apiSchema,
};

const validate = new Ajv({ allErrors: false, strict: true }).compile(tableSchema);

/**
 * Parses and validates a plan table in the `PLANS_FILE` shape; throws an Error whose message is
 * one line naming the source, the offending path and what is allowed.
 */
export function parsePlanTable(text: string, source: string): PlanTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  if (validate(value)) return value;
  const first = validate.errors?.[0];
  const where = first?.instancePath ? shownName(first.instancePath.slice(1).replaceAll('/', '.')) : 'the top level';
  const extra = first?.keyword === 'additionalProperties' ? ` ('${shownName(String(first.params.additionalProperty))}')` : '';
  if (first?.propertyName !== undefined) {
    throw new Error(`${source}: ${where} has the name '${shownName(first.propertyName)}'; names must match ${NAME}`);
  }
  throw new Error(`${source}: ${where} ${first?.message ?? 'is invalid'}${extra}`);
}
