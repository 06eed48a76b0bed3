#!/usr/bin/env node
// Makes `npm start` and `npm test` work on a fresh clone that has only Node and npm: it finds or
// fetches the pinned pnpm, installs the workspace when the lockfile is newer than node_modules,
// makes sure the binaries the tests need are present, then runs the stack or the checks as its own
// child, so that every stop signal reaches it (see runForwarding).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeModules } from './native-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const task = process.argv[2];
const tasks = { stack: 'stack', check: 'check' };
if (!tasks[task]) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(tasks).join('|')}> [args]`);
  process.exit(2);
}

const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function pnpm(args, opts = {}) {
  const [cmd, pre] = has('pnpm') ? ['pnpm', []] : ['npx', ['--yes', `pnpm@${pnpmVersion}`]];
  const res = spawnSync(cmd, [...pre, ...args], { cwd: root, stdio: 'inherit', ...opts });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

function installIfStale() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  pnpm(['install', '--frozen-lockfile']);
}

function ensureDebianPackage(binary, pkg) {
  if (has(binary)) return;
  const root = process.getuid?.() === 0;
  if (has('apt-get') && (root || has('sudo'))) {
    const aptGet = (args) => execFileSync(root ? 'apt-get' : 'sudo', root ? args : ['apt-get', ...args], { stdio: 'inherit' });
    console.log(`[bootstrap] ${binary} not found; installing Debian's ${pkg}`);
    aptGet(['update', '-qq']);
    aptGet(['install', '-y', '-qq', pkg]);
    return;
  }
  console.error(`[bootstrap] ${binary} is required by the tests: install it (Debian/Ubuntu: apt-get install -y ${pkg}).`);
  process.exit(1);
}

/**
 * Runs a script of this repository (the stack, or the checks) as its own child and passes on every
 * stop signal: a SIGINT, SIGTERM or SIGHUP sent to this process alone (a process manager, `kill`,
 * `timeout`, npm forwarding its own Ctrl-C) stops it as Ctrl-C does, and it stops what it started.
 * The parent going away (npm killed outright) counts as a stop too. Exits with the child's code.
 */
function runForwarding(args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 250);
  child.on('exit', (code, signal) => {
    clearInterval(watch);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

installIfStale();
// node_modules may hold better-sqlite3 built for another Node (a run on Node 24 through scripts/with-node.mjs).
ensureNativeModules();
if (task === 'check') {
  ensureDebianPackage('redis-server', 'redis-server');
  ensureDebianPackage('docker-compose', 'docker-compose');
  ensureDebianPackage('chromium', 'chromium');
  runForwarding([join(root, 'scripts', 'check.mjs'), ...process.argv.slice(3)]);
} else {
  runForwarding(['--conditions=development', '--import', 'tsx', join(root, 'scripts', 'stack.ts'), ...process.argv.slice(3)]);
}
