import path from 'node:path';
import { runGatewayScript } from '../support/gateway-process';

// A CLI command starts a process: what it loads is its start-up time, paid by every command an
// operator (or a script, or this suite, some 400 times) runs. Express and pino alone were a third of it.
const PRELOAD = path.resolve(__dirname, '../fixtures/loaded-packages.cjs');
/** What a command that serves nothing, stores nothing and sends no mail must not load. */
const SERVERS_AND_ENGINES = ['express', 'pino', 'pino-http', 'stripe', 'nodemailer', 'ioredis', 'better-sqlite3', 'prom-client', 'ajv-formats'];

async function loadedBy(args: string[], env: Record<string, string>): Promise<{ code: number; loaded: string[] }> {
  const result = await runGatewayScript('src/cli.ts', args, { ...env, NODE_OPTIONS: `--require ${PRELOAD}` });
  const line = result.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (!line) throw new Error(`the process printed no LOADED line: ${result.stderr}`);
  return { code: result.code, loaded: JSON.parse(line.slice('LOADED '.length)) as string[] };
}

describe('what a CLI command loads', () => {
  it.each([
    ['--help', ['--help'], {}],
    ['a command through a gateway (TOLLGATE_URL)', ['account', 'list', '--json'], { TOLLGATE_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: 'cli-start-test-token-0123456789abcdef' }],
  ])('when %s runs, then no server, store engine, mailer or billing package is loaded', async (_name, args, env) => {
    const { loaded } = await loadedBy(args, env);
    expect(loaded).toContain('ajv');
    expect(loaded.filter((name) => SERVERS_AND_ENGINES.includes(name))).toEqual([]);
  });
});
