import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { REAL_DATASET_PATH, realDatasetText } from '../support/real-dataset';

const SERVICE_DIR = join(__dirname, '..', '..');
// Starting Node with the TypeScript loader takes seconds on a busy two-core machine.
const PROCESS_TIMEOUT_MS = 60_000;

/** Starts `src/main.ts` as `pnpm run dev` does, with only PATH and the given variables (none of ours leaks in). */
function startMain(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVICE_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
  });
}

/** Resolves with the port the service logs once it listens. */
function listeningPort(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /"port":(\d+).*"msg":"listening"/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code} before listening: ${buffered}`)));
  });
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
    child = startMain({ PORT: '0', BURGER_DATA_URL: REAL_DATASET_PATH, PROXY_SECRET: 's3cret' });
    const port = await listeningPort(child);
    const base = `http://127.0.0.1:${port}`;
    expect(await untilReady(base)).toMatchObject({ status: 'ready', latest_release: '2026-01-01', countries: 54 });

    expect((await fetch(`${base}/v1/meta`)).status).toBe(403);
    const meta = await fetch(`${base}/v1/meta`, { headers: { 'x-tollgate-proxy-secret': 's3cret', 'x-request-id': 'proc-1' } });
    const body = (await meta.json()) as { data: { countries: number }; meta: { request_id: string } };
    expect(body.data.countries).toBe(54);
    expect(body.meta.request_id).toBe('proc-1');

    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
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
