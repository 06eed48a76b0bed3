import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { THROUGH_TSX } from '@tollgate/envelope/test/processes';
import { BUILD_MANIFEST, ensureGatewayBuilt } from './support/gateway-build';
import { runGatewayScript, startGatewayProcess } from './support/gateway-process';

// The tests run the gateway's entry points from one built file each (support/gateway-build.ts):
// what they run must be what `pnpm dev` and `pnpm tollgate` run.

jest.setTimeout(60_000);

const GATEWAY_DIR = path.resolve(__dirname, '..');

/** Runs a script of the gateway through tsx, as `pnpm dev` does (`pnpm tollgate` runs the built file: scripts/tollgate.mjs). */
function throughTsx(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...THROUGH_TSX, script, ...args], { cwd: GATEWAY_DIR, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the gateway entry points the tests run', () => {
  it.each([
    ['src/cli.ts', ['launch'], {}],
    ['src/cli.ts', ['account', 'list'], { STORE_PATH: '/nonexistent/tollgate.db' }],
    ['src/cli.ts', ['account', 'get'], { STORE_PATH: ':memory:' }],
    ['src/main.ts', [], { PLANS_FILE: '/nonexistent/plans.json', PORT: '0' }],
  ] as [string, string[], Record<string, string>][])('when %s %j runs from the built file and through tsx, then both print the same and exit alike', async (script, args, env) => {
    const [built, source] = await Promise.all([runGatewayScript(script, args, env), throughTsx(script, args, env)]);
    expect(built.code).not.toBe(0);
    expect(built).toEqual(source);
  });

  it('when a built gateway serves its pages, then the files it finds from its own folders are there: the portal, the console, the shared assets, uPlot and Swagger UI', async () => {
    const gateway = await startGatewayProcess({});
    try {
      for (const asset of ['/portal/assets/portal.css', '/admin/assets/console.css', '/portal/assets/shared/base.css', '/portal/vendor/uplot/uPlot.iife.min.js', '/docs/assets/swagger-ui.css']) {
        const res = await fetch(`${gateway.url}${asset}`);
        await res.arrayBuffer();
        expect([asset, res.status]).toEqual([asset, 200]);
      }
    } finally {
      await gateway.stop();
    }
  });

  it('when a source is newer than the files built last, then they are built again', async () => {
    const built = JSON.parse(readFileSync(BUILD_MANIFEST, 'utf8')) as { builtAtMs: number; inputs: string[] };
    expect(built.inputs).toContain(path.join(GATEWAY_DIR, 'src', 'cli.ts'));
    // As if every source had changed since: the build is older than all of them.
    writeFileSync(BUILD_MANIFEST, JSON.stringify({ ...built, builtAtMs: 0 }));
    await ensureGatewayBuilt();
    expect((JSON.parse(readFileSync(BUILD_MANIFEST, 'utf8')) as { builtAtMs: number }).builtAtMs).toBeGreaterThan(0);
  });
});
