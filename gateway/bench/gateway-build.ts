import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';

const GATEWAY_DIR = path.resolve(__dirname, '..');

/**
 * BENCH_MODE=dist (default) measures what ships: the compiled gateway, started with the V8 flags
 * of its `start` script (the Dockerfile's CMD runs the same). BENCH_MODE=dev runs src/ through tsx.
 */
export const BENCH_MODE: 'dist' | 'dev' = process.env.BENCH_MODE === 'dev' ? 'dev' : 'dist';

/** The node flags of the gateway's `start` script. */
export const START_FLAGS = (JSON.parse(readFileSync(path.join(GATEWAY_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((arg) => arg.startsWith('--'));

/** Where the gateway under test comes from, for a report's header. */
export const GATEWAY_SOURCE = BENCH_MODE === 'dist' ? `dist/ (node ${[...START_FLAGS, 'dist/main.js'].join(' ')})` : 'src/ through tsx';

/** In dist mode, builds @tollgate/envelope's dist, then the gateway's (it compiles against envelope's dist). */
export function buildGateway(): void {
  if (BENCH_MODE !== 'dist') return;
  for (const dir of [path.join(GATEWAY_DIR, '..', 'packages', 'envelope'), GATEWAY_DIR]) {
    const result = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed in ${dir}`);
  }
}

/** A gateway process as {@link BENCH_MODE} says. */
export function startBenchGateway(env: Record<string, string>): Promise<ChildServer> {
  return BENCH_MODE === 'dist' ? startChild('dist/main.js', env, START_FLAGS) : startChild('src/main.ts', env);
}
