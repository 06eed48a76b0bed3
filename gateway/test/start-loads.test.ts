import path from 'node:path';
import { runGatewayScript, startGatewayProcess } from './support/gateway-process';

// What a process loads is its start-up time: paid by every CLI command an operator (or a script,
// or this suite, some 400 times) runs, and by every gateway start. Packages a process does not use
// are loaded when it first does (the Stripe SDK alone is 219 modules).
const PRELOAD = path.resolve(__dirname, 'fixtures/loaded-packages.cjs');
const WITH_PRELOAD = { NODE_OPTIONS: `--require ${PRELOAD}` };

/** The npm packages named on the LOADED line the preload writes at exit. */
function loadedIn(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (!line) throw new Error(`the process printed no LOADED line: ${stderr}`);
  return JSON.parse(line.slice('LOADED '.length)) as string[];
}

const only = (loaded: string[], names: readonly string[]): string[] => loaded.filter((name) => names.includes(name));

describe('what a CLI command loads', () => {
  const SERVERS_AND_ENGINES = ['express', 'pino', 'pino-http', 'stripe', 'nodemailer', 'ioredis', 'better-sqlite3', 'prom-client', 'ajv-formats', 'cloudevents'];
  it.each([
    ['--help', ['--help'], {}],
    ['a command through a gateway (TOLLGATE_URL)', ['account', 'list', '--json'], { TOLLGATE_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: 'cli-start-test-token-0123456789abcdef' }],
  ])('when %s runs, then no server, store engine, mailer or billing package is loaded', async (_name, args, env) => {
    const loaded = loadedIn((await runGatewayScript('src/cli.ts', args, { ...env, ...WITH_PRELOAD })).stderr);
    expect(loaded).toContain('ajv');
    expect(only(loaded, SERVERS_AND_ENGINES)).toEqual([]);
  });
});

describe('what a gateway loads', () => {
  it('when it runs on its own store without billing, SMTP or a usage stream, then it serves without the Stripe SDK, nodemailer, cloudevents or ioredis loaded', async () => {
    const gateway = await startGatewayProcess({ ...WITH_PRELOAD, STORE_PATH: ':memory:', ADMIN_TOKEN: 'start-loads-test-token-0123456789abc' });
    const res = await fetch(`${gateway.url}/healthz`);
    expect(res.status).toBe(200);
    await gateway.stop();
    const loaded = loadedIn(gateway.stderr());
    expect(loaded).toEqual(expect.arrayContaining(['express', 'undici', 'prom-client']));
    expect(only(loaded, ['stripe', 'nodemailer', 'cloudevents', 'ioredis'])).toEqual([]);
  });
});
