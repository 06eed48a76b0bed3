import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { freePorts, startMain as startProcess } from '@tollgate/envelope/test/processes';
import { REAL_DATASET_PATH, realDatasetText } from '../support/real-dataset';

const SERVICE_DIR = join(__dirname, '..', '..');
// Starting Node with the TypeScript loader takes seconds on a busy two-core machine.
const PROCESS_TIMEOUT_MS = 60_000;

/** Starts `src/main.ts` as `pnpm run dev` does, with only PATH and the given variables (none of ours leaks in). */
const startMain = (env: Record<string, string>): ChildProcessWithoutNullStreams => startProcess(SERVICE_DIR, { LOG_LEVEL: 'info', ...env }).child;

/** Resolves with the port the service logs once it listens. */
function listeningPort(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /"port":(\d+).*"msg":"listening"/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
    child.once('close', (code) => reject(new Error(`service exited with ${code} before listening: ${buffered}`)));
  });
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

async function untilReady(base: string): Promise<Record<string, unknown>> {
  for (;;) {
    const res = await fetch(`${base}/readyz`);
    if (res.status === 200) return ((await res.json()) as { data: Record<string, unknown> }).data;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the service process', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('when started on the real dataset, then it becomes ready, answers behind the proxy secret, and stops cleanly on SIGTERM', async () => {
    realDatasetText();
    child = startMain({ PORT: '0', BURGER_DATA_URL: REAL_DATASET_PATH, PROXY_SECRET: 'proxy-secret-0123456789abcdef' });
    const port = await listeningPort(child);
    const base = `http://127.0.0.1:${port}`;
    expect(await untilReady(base)).toMatchObject({ status: 'ready', latest_release: '2026-01-01', countries: 54 });

    expect((await fetch(`${base}/v1/meta`)).status).toBe(403);
    const meta = await fetch(`${base}/v1/meta`, { headers: { 'x-tollgate-proxy-secret': 'proxy-secret-0123456789abcdef', 'x-request-id': 'proc-1' } });
    const body = (await meta.json()) as { data: { countries: number }; meta: { request_id: string } };
    expect(body.data.countries).toBe(54);
    expect(body.meta.request_id).toBe('proc-1');

    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, PROCESS_TIMEOUT_MS);

  it('when the CSV host is down, then a failed call logs one line with its cause beside its access line, no stack', async () => {
    const [port, deadPort] = (await freePorts(2)) as [number, number];
    child = startMain({ PORT: String(port), BURGER_DATA_URL: `http://127.0.0.1:${deadPort}/big-mac.csv`, LOG_LEVEL: 'warn' });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await listening(port);
    const res = await fetch(`http://127.0.0.1:${port}/v1/index`, { headers: { 'x-request-id': 'csv-down-1' } });
    expect(res.status).toBe(502);
    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const lines = stdout.trim().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // The start-up download's warning, then the call's cause line and its access line.
    expect(entries).toHaveLength(3);
    expect(entries.find((e) => e.request_id === 'csv-down-1')).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: { host: `127.0.0.1:${deadPort}` } });
    for (const line of lines) {
      expect(line).not.toMatch(/"stack"|"config"/);
      expect(line.length).toBeLessThan(800);
    }
  }, PROCESS_TIMEOUT_MS);

  it.each([
    [{ BURGER_REFRESH_SECONDS: 'soon' }, 'burger: BURGER_REFRESH_SECONDS must be an integer from 1 to 604800'],
    [{ BURGER_UPSTREAM_TIMEOUT_MS: '5' }, 'burger: BURGER_UPSTREAM_TIMEOUT_MS must be an integer from 100 to 300000'],
    [{ PORT: 'http' }, 'burger: PORT must be an integer from 0 to 65535'],
  ])('when the configuration is %j, then the process exits 1 with one line naming the variable', async (env, line) => {
    child = startMain({ PORT: '0', ...env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exited(child)).toBe(1);
    expect(stderr.trim()).toBe(line);
  }, PROCESS_TIMEOUT_MS);

  it('when the port is taken, then the process exits 1 with one line saying so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    try {
      child = startMain({ PORT: String((blocker.address() as AddressInfo).port), BURGER_DATA_URL: REAL_DATASET_PATH });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      expect(await exited(child)).toBe(1);
      expect(stderr.trim()).toMatch(/^burger: listen EADDRINUSE[^\n]*$/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, PROCESS_TIMEOUT_MS);
});
