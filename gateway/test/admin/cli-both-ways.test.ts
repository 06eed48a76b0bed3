import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dayWindow } from '../../src/domain/windows';
import { runGatewayScript, startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { startRedisCluster } from '../support/redis-cluster';
import { startRedisServer } from '../support/redis-server';

// The operator CLI run both ways against each store while a gateway runs on it: through the
// gateway's admin API (TOLLGATE_URL) and on the store directly. Both must print the same.
jest.setTimeout(240_000);

type Engine = 'sqlite' | 'redis' | 'cluster';
type Result = { code: number; stdout: string; stderr: string };

/** The store of one engine: what the gateway and the CLI are told to use, and how to stop it. */
async function startStore(engine: Engine, dir: string): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  if (engine === 'sqlite') return { env: { STORE_PATH: path.join(dir, 'tollgate.db') }, stop: async () => undefined };
  if (engine === 'redis') {
    const server = await startRedisServer();
    return { env: { REDIS_URL: server.url }, stop: () => server.stop() };
  }
  const cluster = await startRedisCluster();
  return { env: { REDIS_CLUSTER_NODES: cluster.seeds }, stop: () => cluster.stop() };
}

/** `work` for every item, at most `size` at a time, the results in order. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

const UNKNOWN_ACCOUNT = 'acc_000000000000000000000000';
const UNKNOWN_KEY = 'key_00000000000000000000000000000000';

describe.each<Engine>(['sqlite', 'redis', 'cluster'])('the operator CLI on %s, while a gateway runs on it', (engine) => {
  let dir: string;
  let store: Awaited<ReturnType<typeof startStore>>;
  let env: Record<string, string>;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), `tollgate-cli-${engine}-`));
    store = await startStore(engine, dir);
    env = { ...store.env, ADMIN_TOKEN_FILE: path.join(dir, 'admin-token') };
    gateway = await startGatewayProcess(env);
  });
  afterAll(async () => {
    await gateway?.stop();
    await store?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // JSON, as a script reads it: what both ways print is compared whole.
  const viaGateway = (...args: string[]): Promise<Result> => runGatewayScript('src/cli.ts', [...args, '--json'], { ...env, TOLLGATE_URL: gateway.url });
  const onStore = (...args: string[]): Promise<Result> => runGatewayScript('src/cli.ts', [...args, '--json'], env);
  async function ok<T = Record<string, unknown>>(run: Promise<Result>): Promise<T> {
    const result = await run;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as T;
  }

  it('when the same commands run through the gateway and on the store, then both print the same, every change is audited with who made it, and each way sees what the other changed', async () => {
    const email = `ops-${engine}@example.com`;
    const account = await ok<{ id: string }>(viaGateway('account', 'create', '--email', email, '--subscribe', 'burger=free'));
    const key = await ok<{ id: string; key: string; prefix: string; last4: string }>(viaGateway('key', 'create', account.id, '--name', 'ci'));
    const comp = await ok<{ subscriptions: Record<string, object> }>(viaGateway('account', 'subscribe', account.id, 'token', 'pro', '--comp'));
    expect(comp.subscriptions.token).toEqual({ plan: 'pro', status: 'active', comp: true });
    const legacy = await ok<{ id: string }>(viaGateway('create', '--owner', `legacy-${engine}@example.com`, '--subscribe', 'token=free'));
    const today = dayWindow(Date.now()).id;

    const reads = [
      ['account', 'get', account.id],
      ['account', 'list', '--email', email.toUpperCase()],
      ['account', 'find', `${key.prefix}…${key.last4}`],
      ['account', 'find', key.id],
      ['account', 'find', key.key],
      ['account', 'find', email],
      ['key', 'list', account.id],
      ['account', 'usage', account.id],
      ['account', 'history', account.id, '--from', today],
      ['usage', legacy.id],
      ['audit', 'list', '--account', account.id],
    ];
    const refusals = [
      ['account', 'get', UNKNOWN_ACCOUNT],
      ['subscribe', UNKNOWN_KEY, 'token', 'gold'],
      ['account', 'create', '--email', 'not-an-address'],
      ['key', 'roll', UNKNOWN_KEY],
      ['account', 'create', '--email', email],
    ];
    // A few at a time: each is a node process of its own (on the SQLite file one at a time: each
    // holds it while it runs). Usage counts seconds to its reset, which move between runs.
    const run = async (way: (...args: string[]) => Promise<Result>, size: number) => {
      const all = await inBatches([...reads, ...refusals], size, (args) => way(...args));
      const steady = all.map((r) => ({ ...r, stdout: r.stdout.replace(/"resets_in_seconds": \d+/g, '"resets_in_seconds": 0') }));
      return { reads: steady.slice(0, reads.length), refusals: steady.slice(reads.length) };
    };
    const through = await run(viaGateway, 4);
    for (const [i, result] of through.reads.entries()) expect([reads[i], result.code, result.stderr]).toEqual([reads[i], 0, '']);
    expect(through.refusals.map((r) => r.code)).toEqual([1, 2, 2, 1, 1]);
    expect(through.refusals[0]!.stderr).toBe(`gateway cli: no account with id ${UNKNOWN_ACCOUNT}\n`);
    const audit = JSON.parse(through.reads.at(-1)!.stdout) as { items: { action: string; actor: object }[] };
    expect(audit.items.map((e) => e.action)).toEqual(['subscription.set', 'key.create', 'account.create']);
    for (const e of audit.items) expect(e.actor).toEqual({ type: 'operator', id: 'admin token', via: 'admin-api' });

    if (engine === 'sqlite') {
      // One process per store file: the store is the gateway's while it runs, and the CLI says the way in.
      const held = await onStore('account', 'get', account.id);
      expect([held.code, held.stdout]).toEqual([1, '']);
      expect(held.stderr).toBe(`gateway cli: STORE_PATH ${env.STORE_PATH} is held by another process, such as a running gateway (one process per store file): set TOLLGATE_URL=http://127.0.0.1:8080 to act through the running gateway's admin API\n`);
      await gateway.stop();
    }
    expect(await run(onStore, engine === 'sqlite' ? 1 : 4)).toEqual(through);

    // A change made on the store is the gateway's to see at once (on the file: once it is back).
    const suspended = await ok<{ status: string }>(onStore('account', 'suspend', account.id));
    expect(suspended.status).toBe('suspended');
    if (engine === 'sqlite') gateway = await startGatewayProcess(env);
    expect((await ok<{ status: string }>(viaGateway('account', 'get', account.id))).status).toBe('suspended');
    const entries = (await ok<{ items: { action: string; actor: { via: string; id: string }; from: string }[] }>(viaGateway('audit', 'list', '--account', account.id))).items;
    expect(entries[0]).toMatchObject({ action: 'account.suspend', actor: { type: 'operator', via: 'cli', id: expect.stringMatching(/^cli:.+@.+$/) }, from: expect.any(String) });

    // The export: JSON lines, oldest first, the same both ways.
    const exported = await viaGateway('audit', 'export', '--account', account.id);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { action: string });
    expect(lines.map((e) => e.action)).toEqual(['account.create', 'key.create', 'subscription.set', 'account.suspend']);
    if (engine !== 'sqlite') expect((await onStore('audit', 'export', '--account', account.id)).stdout).toBe(exported.stdout);
  });
});

describe('the admin token kept beside the store', () => {
  let dir: string;
  let gateway: GatewayProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tollgate-token-'));
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const adminCall = async (token: string) => (await fetch(`${gateway!.url}/admin/v1/accounts`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('when the gateway starts without ADMIN_TOKEN, then it makes the token once (mode 0600), keeps it across restarts, and the CLI rotates it both ways with the old one refused at once', async () => {
    const { readFileSync, statSync } = await import('node:fs');
    const env = { STORE_PATH: path.join(dir, 'a', 'tollgate.db'), LOG_LEVEL: 'info' };
    const file = path.join(dir, 'a', 'admin-token');
    gateway = await startGatewayProcess(env);
    expect(gateway.output.some((line) => line.includes(`admin token made and kept ${file}`))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = readFileSync(file, 'utf8').trim();
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await adminCall(first)).toBe(200);
    await gateway.stop();
    gateway = await startGatewayProcess(env);
    expect(gateway.output.some((line) => line.includes(`admin token read from ${file}`))).toBe(true);
    expect(await adminCall(first)).toBe(200);

    const through = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate', '--json'], { ...env, TOLLGATE_URL: gateway.url });
    expect([through.code, through.stderr]).toEqual([0, '']);
    const second = (JSON.parse(through.stdout) as { token: string; file: string });
    expect(second.file).toBe(file);
    expect(readFileSync(file, 'utf8').trim()).toBe(second.token);
    expect([await adminCall(first), await adminCall(second.token)]).toEqual([401, 200]);

    // On the file itself (no TOLLGATE_URL) while the gateway holds the store: refused, since the
    // rotation could not be recorded in the audit log; the token stays as it was.
    const held = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate'], env);
    expect([held.code, held.stderr]).toEqual([1, expect.stringMatching(/is held by another process, such as a running gateway .*TOLLGATE_URL/)]);
    expect(readFileSync(file, 'utf8').trim()).toBe(second.token);
    // With the gateway stopped, the CLI rotates the file and records it; the next start reads the new token.
    await gateway.stop();
    const direct = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate', '--json'], env);
    expect([direct.code, direct.stderr]).toEqual([0, '']);
    const third = (JSON.parse(direct.stdout) as { token: string }).token;
    gateway = await startGatewayProcess(env);
    expect([await adminCall(second.token), await adminCall(third)]).toEqual([401, 200]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const audit = await fetch(`${gateway.url}/admin/v1/audit/export`, { headers: { authorization: `Bearer ${third}` } });
    const rotations = (await audit.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { action: string; actor: { id: string; via: string } }).filter((e) => e.action === 'admin_token.rotate');
    expect(rotations.map((e) => e.actor.via)).toEqual(['admin-api', 'cli']);
  });

  it('when the file holds a placeholder or a short token, then the gateway refuses to start with one line naming the file', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(path.join(dir, 'b'), { recursive: true });
    const file = path.join(dir, 'b', 'admin-token');
    for (const token of ['change-me-admin-token', 'short']) {
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      const result = await runGatewayScript('src/main.ts', [], { STORE_PATH: path.join(dir, 'b', 'tollgate.db'), PORT: '0' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^gateway: the admin token in ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is refused: [^\\n]*; delete the file to have a new one made, or run: tollgate admin-token rotate\\n$`));
    }
  });

  it('when ADMIN_TOKEN is set, then rotating is refused both ways, saying to change it in the environment', async () => {
    const token = 'an-admin-token-from-the-environment';
    const env = { STORE_PATH: path.join(dir, 'c', 'tollgate.db'), ADMIN_TOKEN: token };
    gateway = await startGatewayProcess(env);
    for (const extra of [{ TOLLGATE_URL: gateway.url }, {}] as Record<string, string>[]) {
      const result = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate'], { ...env, ...extra });
      expect([result.code, result.stderr]).toEqual([1, 'gateway cli: the admin token comes from ADMIN_TOKEN in the environment: change it there and restart the gateway\n']);
    }
    expect(await adminCall(token)).toBe(200);
  });
});
