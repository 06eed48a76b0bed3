import { execFile } from 'node:child_process';
import path from 'node:path';
import { startMain, THROUGH_TSX } from '@tollgate/envelope/test/processes';
import { builtEntryArgs, ensureGatewayBuilt } from './gateway-build';

const GATEWAY_DIR = path.resolve(__dirname, '../..');
/** How long a gateway may take to say it listens. */
const STARTUP_MS = 20_000;

/** How a script of the gateway is run: an entry point from its built file, anything else (an example) through tsx. */
const scriptArgs = (script: string): string[] => builtEntryArgs(script) ?? [...THROUGH_TSX, script];

/** A gateway running as its own process (src/main.ts, built: see gateway-build.ts). */
export interface GatewayProcess {
  url: string;
  port: number;
  /** Every line the process wrote to stdout so far. */
  output: string[];
  /** What it wrote to stderr so far (a crash's stack, a start-up refusal). */
  stderr(): string;
  /** SIGTERM, the graceful stop (SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** SIGKILL: what a crash leaves behind. */
  kill(): Promise<void>;
  /** Sends the process a signal and returns at once (SIGHUP: reload the catalogue). */
  signal(name: NodeJS.Signals): void;
}

/** Starts `src/main.ts` with PORT=0 and the given environment; resolves when it listens. */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  // Without REDIS_URL a gateway keeps an embedded store file; tests that want one set STORE_PATH.
  await ensureGatewayBuilt();
  const main = startMain(GATEWAY_DIR, { PORT: '0', STORE_PATH: ':memory:', ...env }, 'src/main.ts', scriptArgs('src/main.ts'));
  const { child } = main;
  const output: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    let settled = false;
    const onExit = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`gateway exited with code ${code}: ${main.output()}`));
    };
    // A gateway that never says it listens is stopped (SIGTERM, SIGKILL after 2 s) and waited for
    // before the start fails: left running, it would outlive the test and keep jest from exiting.
    const timer = setTimeout(() => {
      settled = true;
      void main.stop(2_000).then((code) => reject(new Error(`gateway did not start within ${STARTUP_MS / 1000} s (stopped it, exit ${code ?? child.signalCode}): ${main.output()}`)));
    }, STARTUP_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'listening' && parsed.port && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(parsed.port);
        }
      }
    });
    void main.exited.then(onExit);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    output,
    stderr: () => stderr,
    async stop() {
      await main.stop();
    },
    async kill() {
      child.kill('SIGKILL');
      await main.exited;
    },
    signal(name) {
      child.kill(name);
    },
  };
}

/** Runs a gateway script (`src/main.ts`, `src/cli.ts` from their built files; an example) to completion. */
export async function runGatewayScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  await ensureGatewayBuilt();
  return new Promise((resolve) => {
    execFile(process.execPath, [...scriptArgs(script), ...args], { cwd: GATEWAY_DIR, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
