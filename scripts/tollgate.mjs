#!/usr/bin/env node
// `pnpm tollgate …`: the operator CLI (gateway/src/cli.ts) from one built file, as the tests run
// it (gateway/test/support/gateway-build.ts), rebuilt when a source is newer. Through tsx each
// run spent about 1 s of CPU loading and transforming some 200 modules before its first line;
// the built file starts in about a third of that. The check is one stat per source file.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const gateway = join(dirname(fileURLToPath(import.meta.url)), '..', 'gateway');
const built = join(gateway, 'node_modules', '.cache', 'tollgate-test-build');

function upToDate() {
  try {
    const { builtAtMs, inputs } = JSON.parse(readFileSync(join(built, 'inputs.json'), 'utf8'));
    statSync(join(built, 'cli.cjs'));
    return inputs.every((input) => statSync(input).mtimeMs <= builtAtMs);
  } catch {
    return false;
  }
}

if (!upToDate()) {
  // The build itself is TypeScript: run through tsx in a process of its own, once per change.
  const builder = join(gateway, 'test', 'support', 'gateway-build.ts');
  const run = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', '--eval', `require(${JSON.stringify(builder)}).ensureGatewayBuilt()`], { cwd: gateway, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
createRequire(import.meta.url)(join(built, 'cli.cjs'));
