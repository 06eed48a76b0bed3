import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { catalogueChanges } from './catalogue';
import { parseCatalogue } from './catalogue-file';
import type { CatalogueFormat } from './catalogue-file';
import { CATALOGUE_SCHEMA } from './catalogue-schema';

const defaults = { timeoutMs: 15_000, maxConnections: 256 };
const parse = (text: string, format: CatalogueFormat = 'yaml') => parseCatalogue(text, { source: 'catalogue.yaml', format, defaults });

const WEATHER = `apis:
  weather:
    title: Weather
    summary: Forecasts by place
    upstream: http://127.0.0.1:9100/
    plans:
      free: { monthly_quota: 100, rate_per_second: 2, price: 0, currency: USD }
`;

describe('parseCatalogue', () => {
  it('when the published schema file is read, then it is the schema the gateway validates with (tollgate catalogue schema prints the same)', () => {
    const published: unknown = JSON.parse(readFileSync(path.resolve(__dirname, '../../catalogue/catalogue.schema.json'), 'utf8'));
    expect(published).toEqual(CATALOGUE_SCHEMA);
  });

  it('when an API says only what it must, then the defaults fill the rest: its document and readiness check on the service, listed, no playground, the proxy settings of the environment', () => {
    const { apis } = parse(WEATHER);
    expect(apis.weather).toEqual({
      name: 'weather',
      title: 'Weather',
      summary: 'Forecasts by place',
      description: '',
      description_html: '',
      upstream: 'http://127.0.0.1:9100',
      openapi: 'http://127.0.0.1:9100/v1/openapi.json',
      health: 'http://127.0.0.1:9100/readyz',
      listed: true,
      playground_per_day: 0,
      plans: { free: { monthly_quota: 100, rate_per_second: 2, price: 0, currency: 'USD', features: [], offered: true } },
      proxy: { timeout_ms: 15_000, max_connections: 256, forward_headers: [], forward_set_cookie: false },
    });
  });

  it('when the same catalogue is written as JSON, then it is the same catalogue', () => {
    const json = JSON.stringify({ apis: { weather: { title: 'Weather', summary: 'Forecasts by place', upstream: 'http://127.0.0.1:9100/', plans: { free: { monthly_quota: 100, rate_per_second: 2, price: 0, currency: 'USD' } } } } });
    expect(parse(json, 'json').apis).toEqual(parse(WEATHER).apis);
  });

  it('when a description holds raw HTML or a script link, then the HTML shows it as text and the link is not made', () => {
    const { apis } = parse(WEATHER.replace('    plans:', '    description: "# Notes\\n\\n<script>alert(1)</script> [x](javascript:alert(1)) **bold**"\n    plans:'));
    const html = apis.weather?.description_html ?? '';
    expect(html).toContain('<h3>Notes</h3>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toMatch(/<script|href="javascript/i);
  });

  it.each<[string, string, string]>([
    ['a YAML syntax error', 'apis:\n  weather: [\n', 'catalogue.yaml, line 3: '],
    ['a key given twice', WEATHER.replace('    title: Weather\n', '    title: Weather\n    title: Again\n'), 'catalogue.yaml, line 4: Map keys must be unique'],
    ['a missing field', WEATHER.replace('    summary: Forecasts by place\n', ''), "catalogue.yaml, line 2: apis.weather needs 'summary'"],
    ['a setting that does not exist', WEATHER.replace('    title: Weather\n', '    title: Weather\n    colour: blue\n'), "catalogue.yaml, line 4: apis.weather has 'colour', which is not a setting here"],
    ['a plan of the wrong type', WEATHER.replace('price: 0', 'price: free'), 'catalogue.yaml, line 7: apis.weather.plans.free.price must be integer'],
    ['a currency in lower case', WEATHER.replace('USD', 'usd'), 'catalogue.yaml, line 7: apis.weather.plans.free.currency must match pattern "^[A-Z]{3}$"'],
    ['an upstream that is no URL', WEATHER.replace('http://127.0.0.1:9100/', 'ftp://x'), 'catalogue.yaml, line 5: apis.weather.upstream must match pattern "^https?://[^\\s?#]+$"'],
    ['a name of the gateway', WEATHER.replace('  weather:', '  admin:'), "catalogue.yaml, line 2: apis names 'admin', which is one of the gateway's own paths"],
    ['a name outside the alphabet', WEATHER.replace('  weather:', '  Weather:'), "catalogue.yaml, line 2: apis has the name 'Weather'; names must match ^[a-z][a-z0-9_-]{0,31}$"],
    ['a header no API may receive', WEATHER.replace('    plans:', '    proxy: { forward_headers: [cookie] }\n    plans:'), 'catalogue.yaml, line 6: apis.weather.proxy.forward_headers.0 must be one of authorization'],
    ['no API', 'apis: {}\n', 'catalogue.yaml, line 1: apis must NOT have fewer than 1 properties'],
    // A complex key (`? …`): a mapping as a name, which became a name of several lines (found by the property below, seed 200460489).
    ['a mapping written as a key', WEATHER.replace('    plans:', '?    plans:'), "catalogue.yaml, line 6: a key is a mapping or a list (written with '?'); keys are names"],
    ['a name with a line break', WEATHER.replace('    title: Weather\n', '    title: Weather\n    "col\\nour": blue\n'), "catalogue.yaml, line 4: apis.weather has 'col\\u000aour', which is not a setting here"],
    ['not a map', '- a\n- b\n', 'catalogue.yaml, line 1: the top level must be object'],
  ])('when the file has %s, then the error is one line naming the file, the line and the place', (_case, text, start) => {
    let message = '';
    try {
      parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.startsWith(start)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('when a JSON file is not JSON, then one line says so, naming the file', () => {
    expect(() => parse('{"apis": ', 'json')).toThrow(/^catalogue\.yaml is not valid JSON: [^\n]+$/);
  });

  it('when any text is given, then it is a catalogue or one line naming the file, never another failure', () => {
    const lines = WEATHER.split('\n');
    const mutated = fc.tuple(fc.nat(lines.length - 1), fc.string({ maxLength: 12 }), fc.nat(40)).map(([line, text, at]) => lines.map((l, i) => (i === line ? `${l.slice(0, at)}${text}${l.slice(at)}` : l)).join('\n'));
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 200 })), (text) => {
        try {
          parse(text);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
          expect((err as Error).message).toMatch(/^catalogue\.yaml[^\n]*$/);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('catalogueChanges', () => {
  it('when a reload adds, removes, reprices and retires, then each is named', () => {
    const before = parse(WEATHER.replace('      free:', '      pro: { monthly_quota: 1000, rate_per_second: 5, price: 900, currency: USD }\n      gold: { monthly_quota: 5000, rate_per_second: 9, price: 1900, currency: USD }\n      free:'));
    const after = parse(
      WEATHER.replace('      free:', '      pro: { monthly_quota: 1000, rate_per_second: 5, price: 1200, currency: USD }\n      gold: { monthly_quota: 5000, rate_per_second: 9, price: 1900, currency: USD, offered: false }\n      free:').replace('apis:\n', 'apis:\n  maps:\n    title: Maps\n    summary: Tiles\n    upstream: http://127.0.0.1:9200\n    plans:\n      free: { monthly_quota: 1, rate_per_second: 1, price: 0, currency: EUR }\n'),
    );
    expect(catalogueChanges(before, after)).toEqual({ added: ['maps'], removed: [], changed: ['weather'], plansWithdrawn: ['weather gold'], plansRepriced: ['weather pro'] });
    expect(catalogueChanges(after, before)).toMatchObject({ added: [], removed: ['maps'], plansWithdrawn: [] });
  });
});
