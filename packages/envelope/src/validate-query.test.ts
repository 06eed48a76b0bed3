import { AppError } from './app-error';
import { createQueryParser } from './validate-query';

interface Query {
  base: string;
  limit: number;
  country?: string;
}

const parse = createQueryParser<Query>({
  type: 'object',
  properties: {
    base: { type: 'string', enum: ['usd', 'eur'], default: 'usd' },
    limit: { type: 'integer', minimum: 1, maximum: 25, default: 5 },
    country: { type: 'string', minLength: 1, description: 'a country name, ISO3 or currency code' },
    min_confidence: { type: 'number', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
  },
});

const requireCountry = createQueryParser<{ country: string }>({
  type: 'object',
  required: ['country'],
  properties: { country: { type: 'string', minLength: 1, description: 'a country name, ISO3 or currency code' } },
});

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a throw');
}

describe('createQueryParser', () => {
  it('when parameters are absent, then defaults fill them', () => {
    expect(parse({})).toEqual({ base: 'usd', limit: 5 });
  });

  it('when an integer arrives as a string, then it is coerced', () => {
    expect(parse({ limit: '7', base: 'eur' })).toEqual({ base: 'eur', limit: 7 });
  });

  it('when parsing, then the input object is left untouched', () => {
    const input = { limit: '7' };
    parse(input);
    expect(input).toEqual({ limit: '7' });
  });

  it.each([
    [{ base: 'chf' }, 'base', 'base must be one of usd, eur'],
    [{ limit: '0' }, 'limit', 'limit must be an integer from 1 to 25'],
    [{ limit: '26' }, 'limit', 'limit must be an integer from 1 to 25'],
    [{ limit: 'abc' }, 'limit', 'limit must be an integer from 1 to 25'],
    [{ limit: '2.5' }, 'limit', 'limit must be an integer from 1 to 25'],
    [{ base: ['usd', 'eur'] }, 'base', 'base must be given only once'],
    [{ min_confidence: '-1' }, 'min_confidence', 'min_confidence must be a number of at least 0'],
    [{ page: '0' }, 'page', 'page must be an integer of at least 1'],
    [{ country: '' }, 'country', 'country must be a country name, ISO3 or currency code'],
    [{ colour: 'red' }, 'colour', "unknown parameter 'colour'; allowed parameters: base, limit, country, min_confidence, page"],
    [{ base: 'chf', colour: 'red' }, 'colour', "unknown parameter 'colour'; allowed parameters: base, limit, country, min_confidence, page"],
  ])('when the query is %j, then 400 names %s', (query, parameter, message) => {
    const err = errorOf(() => parse(query));
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe(message);
    expect(err.details).toEqual({ parameter });
  });

  it.each([
    [{ limit: 'Infinity' }, 'limit'],
    [{ limit: '-Infinity' }, 'limit'],
    [{ limit: '1e309' }, 'limit'],
    [{ limit: '-1e309' }, 'limit'],
    [{ limit: ' Infinity ' }, 'limit'],
    [{ min_confidence: 'Infinity' }, 'min_confidence'],
    [{ page: '+Infinity' }, 'page'],
    [{ page: ['1', 'Infinity'] }, 'page'],
    [{ base: 'usd', min_confidence: '1e400' }, 'min_confidence'],
  ])('when the query is %j, then 400 says %s must be a finite number', (query, parameter) => {
    const err = errorOf(() => parse(query));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe(`${parameter} must be a finite number`);
    expect(err.details).toEqual({ parameter });
  });

  it('when a number parameter sits in anyOf, then a non-finite value is refused too', () => {
    const either = createQueryParser<{ block: number | string }>({
      type: 'object',
      properties: { block: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', enum: ['latest'] }] } },
    });
    expect(either({ block: '7' })).toEqual({ block: 7 });
    expect(errorOf(() => either({ block: 'Infinity' })).message).toBe('block must be a finite number');
  });

  it('when a string parameter holds "Infinity", then it stays a string', () => {
    expect(parse({ country: 'Infinity' })).toEqual({ base: 'usd', limit: 5, country: 'Infinity' });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    'when an inherited property name %s is a parameter, then 400 names it as unknown',
    (name) => {
      const query: Record<string, unknown> = Object.create(null);
      query[name] = '1';
      const err = errorOf(() => parse(query));
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.details).toEqual({ parameter: name });
      expect(err.message).toMatch(new RegExp(`^unknown parameter '${name}'`));
    },
  );

  it.each(['a[]', 'a[b]', 'base[]', 'limit[0]'])('when an array-style name %s arrives, then 400 names it as unknown', (name) => {
    const err = errorOf(() => parse({ [name]: '1' }));
    expect(err.details).toEqual({ parameter: name });
  });

  it('when a required parameter is missing, then the message says what it must be', () => {
    const err = errorOf(() => requireCountry({}));
    expect(err.message).toBe('country is required and must be a country name, ISO3 or currency code');
  });

  it('when an endpoint takes no parameters and one is sent, then the message says none are taken', () => {
    const none = createQueryParser<Record<string, never>>({ type: 'object', properties: {} });
    expect(errorOf(() => none({ x: '1' })).message).toBe("unknown parameter 'x'; this endpoint takes no parameters");
  });
});
