import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CATALOGUE_SCHEMA } from '../../src/domain/catalogue-schema';
import { runGatewayScript } from '../support/gateway-process';

jest.setTimeout(90_000);

const BUILT_IN = readFileSync(path.resolve(__dirname, '../../catalogue/built-in.yaml'), 'utf8');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-cli-catalogue-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tollgate catalogue', () => {
  it('when check is run on a good file, then it prints where it was read from, its digest and each API (a table, or JSON with --json); schema prints the published schema as JSON', async () => {
    const file = path.join(dir, 'good.yaml');
    writeFileSync(file, `${BUILT_IN}  weather:\n    title: Weather\n    summary: Forecasts\n    upstream: http://127.0.0.1:9100\n    listed: false\n    plans:\n      free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: USD }\n`);
    const env = { CATALOGUE_FILE: file, STORE_PATH: ':memory:' };
    const [check, table, schema] = await Promise.all([runGatewayScript('src/cli.ts', ['catalogue', 'check', '--json'], env), runGatewayScript('src/cli.ts', ['catalogue', 'check'], env), runGatewayScript('src/cli.ts', ['catalogue', 'schema'], { STORE_PATH: ':memory:' })]);
    expect([check.code, check.stderr, table.code, table.stderr]).toEqual([0, '', 0, '']);
    expect(table.stdout).toMatch(/^source +CATALOGUE_FILE /m);
    expect(table.stdout).toMatch(/^weather +http:\/\/127\.0\.0\.1:9100 +false +free$/m);
    const printed = JSON.parse(check.stdout) as { source: string; digest: string; apis: { api: string; upstream: string; listed: boolean; plans: string[] }[] };
    expect(printed.source).toBe(`CATALOGUE_FILE ${file}`);
    expect(printed.digest).toMatch(/^[0-9a-f]{16}$/);
    expect(printed.apis.map((a) => a.api)).toEqual(['burger', 'token', 'logs', 'weather']);
    expect(printed.apis[3]).toEqual({ api: 'weather', upstream: 'http://127.0.0.1:9100', listed: false, plans: ['free'] });
    expect(JSON.parse(schema.stdout)).toEqual(CATALOGUE_SCHEMA);
  });

  it('when check is run on a bad file, then it exits 1 with one line naming the file, the line and the place; reload without TOLLGATE_URL says how to reach a gateway', async () => {
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, BUILT_IN.replace('price: 575', 'price: -575'));
    const [check, reload] = await Promise.all([runGatewayScript('src/cli.ts', ['catalogue', 'check'], { CATALOGUE_FILE: file, STORE_PATH: ':memory:' }), runGatewayScript('src/cli.ts', ['catalogue', 'reload'], { STORE_PATH: ':memory:' })]);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(`gateway cli: CATALOGUE_FILE ${file}, line 18: apis.burger.plans.starter.price must be >= 0\n`);
    expect(reload.code).toBe(2);
    expect(reload.stderr.split('\n')[0]).toBe('gateway cli: catalogue reload asks a running gateway: set TOLLGATE_URL to its address, or send its process SIGHUP');
  });
});
