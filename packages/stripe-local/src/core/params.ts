import { invalidRequest, missingParam } from '../http/stripe-error';

/** A parsed form or query value: qs gives strings, arrays and (null-prototype) objects. */
export type RawValue = string | RawValue[] | { [key: string]: RawValue };

/** Parameters every endpoint takes besides its own. */
const ALWAYS_ALLOWED = ['expand'];

/**
 * Typed reads of a request's parameters, with Stripe's error messages. A value of the wrong shape
 * (`a=1&a[b]=2`, an array where a string belongs) is a 400 naming the parameter, never a crash.
 */
export class Params {
  constructor(
    private readonly raw: { [key: string]: RawValue },
    private readonly prefix = '',
  ) {}

  /** Where these parameters sit in the request: `items[0]` (empty at the top). */
  get path(): string {
    return this.prefix;
  }

  /** The parameter's name as Stripe reports it: `recurring[interval]`. */
  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.raw, key);
  }

  /** Refuses any parameter not listed, as Stripe does ("Received unknown parameter"). */
  allow(...keys: string[]): this {
    for (const key of Object.keys(this.raw)) {
      if (keys.includes(key) || (!this.prefix && ALWAYS_ALLOWED.includes(key))) continue;
      throw invalidRequest(`Received unknown parameter: ${this.name(key)}`, { param: this.name(key), code: 'parameter_unknown' });
    }
    return this;
  }

  /** A string; `''` reads as absent, which is how the SDK sends "unset" for emptyable fields. */
  string(key: string): string | undefined {
    const value = this.value(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${this.name(key)}`, { param: this.name(key) });
    if (value.length > 5000) throw invalidRequest(`Invalid string: ${this.name(key)} is longer than 5000 characters`, { param: this.name(key) });
    return value;
  }

  requireString(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw missingParam(this.name(key));
    return value;
  }

  /** True when the parameter was sent as an empty string: Stripe's way of clearing a field. */
  isEmpty(key: string): boolean {
    return this.value(key) === '';
  }

  integer(key: string): number | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!/^-?\d{1,15}$/.test(text) || !Number.isSafeInteger(value)) {
      throw invalidRequest(`Invalid integer: ${text}`, { param: this.name(key), code: 'parameter_invalid_integer' });
    }
    return value;
  }

  boolean(key: string): boolean | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    if (text !== 'true' && text !== 'false') throw invalidRequest(`Invalid boolean: ${text}`, { param: this.name(key) });
    return text === 'true';
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    if (!(values as readonly string[]).includes(text)) {
      throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${values.join(', ')}`, { param: this.name(key) });
    }
    return text as T;
  }

  object(key: string): Params | undefined {
    const value = this.value(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'object') throw invalidRequest(`Invalid object: ${this.name(key)}`, { param: this.name(key) });
    return new Params(value as { [key: string]: RawValue }, this.name(key));
  }

  /** An array of hashes (`items[0][price]=…`). */
  list(key: string): Params[] {
    return this.entries(key).map(([index, value]) => {
      if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(`Invalid hash: ${this.name(key)}[${index}]`, { param: `${this.name(key)}[${index}]` });
      return new Params(value, `${this.name(key)}[${index}]`);
    });
  }

  /** An array of strings (`expand[]=…`, `lookup_keys[0]=…`). */
  strings(key: string): string[] {
    return this.entries(key).map(([index, value]) => {
      if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${this.name(key)}[${index}]`, { param: `${this.name(key)}[${index}]` });
      return value;
    });
  }

  /** The raw value as qs parsed it, for code that reads an untyped hash (metadata). */
  value(key: string): RawValue | undefined {
    return this.has(key) ? this.raw[key] : undefined;
  }

  // qs makes a (maybe sparse) array of `a[0]…a[n]`, or a hash of indices above its array limit.
  private entries(key: string): [string, RawValue][] {
    const value = this.value(key);
    if (value === undefined || value === '') return [];
    if (typeof value === 'object' && Object.keys(value).every((k) => /^\d+$/.test(k))) {
      return Object.keys(value)
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => [k, (value as Record<string, RawValue>)[k]!]);
    }
    throw invalidRequest(`Invalid array: ${this.name(key)}`, { param: this.name(key) });
  }
}
