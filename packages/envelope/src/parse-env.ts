import Ajv from 'ajv';
import { describeError } from './validate-query';
import type { QuerySchema } from './validate-query';

/** A bad configuration value; the message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: true });
ajv.addKeyword({ keyword: 'example' });

/**
 * Validates the environment variables a schema names (coercing numbers, filling defaults) and
 * returns them; an empty variable counts as unset. Throws a {@link ConfigError} naming the first
 * bad variable and what it allows.
 *
 * @example
 * const env = parseEnv<{ PORT: number }>({ type: 'object', properties: { PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8081 } } }, process.env);
 */
export function parseEnv<T>(schema: QuerySchema, env: Record<string, string | undefined>): T {
  const validate = ajv.compile(schema);
  const picked: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  const input = { ...picked };
  if (validate(picked)) return picked as T;
  const first = validate.errors?.[0];
  const { message } = first ? describeError(first, schema, input) : { message: 'invalid configuration' };
  throw new ConfigError(message);
}
