// The Docker engine the container check needs on a CI machine of this project's kind (Debian, root,
// no init system): Debian's packages when missing, and a dockerd started by hand when none answers.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether `cmd` is on the PATH. */
export function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command with its output shown; throws naming it when it fails. */
export function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (res.error) throw new Error(`${cmd} could not run: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status ?? res.signal}`);
}

/** Runs a command and answers its standard output; throws with its standard error when it fails. */
export function output(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
}

/** Whether the command succeeds, its output hidden. */
export function succeeds(cmd, args, options = {}) {
  return spawnSync(cmd, args, { stdio: 'ignore', ...options }).status === 0;
}

/** Installs Debian's packages for the binaries that are missing (apt-get, as root). */
export function ensurePackages(wanted, log) {
  const missing = Object.entries(wanted).filter(([binary]) => !has(binary)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    throw new Error(`missing ${missing.join(', ')}: install them (Debian: apt-get install -y ${missing.join(' ')}), or run this as root`);
  }
  log(`installing Debian's ${missing.join(', ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

const PID_FILE = '/var/run/docker.pid';

/** Resolves once `docker info` answers, starting dockerd (its log in `logFile`) when nothing does. */
export async function ensureDaemon(logFile, log) {
  if (succeeds('docker', ['info'])) return;
  // A pid file whose process is gone (a machine restarted, a daemon killed) stops dockerd from starting.
  if (existsSync(PID_FILE)) {
    const pid = Number(readFileSync(PID_FILE, 'utf8').trim());
    if (!pid || !existsSync(`/proc/${pid}`)) rmSync(PID_FILE, { force: true });
  }
  log(`no Docker engine answers: starting dockerd (log: ${logFile})`);
  const out = openSync(logFile, 'a');
  // Its own session: it outlives this check, so the next run finds it and its build cache.
  spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] }).unref();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await sleep(500);
    if (succeeds('docker', ['info'])) return;
  }
  throw new Error(`dockerd did not answer within 60 s; see ${logFile}`);
}

/** `docker compose` (v2) when the CLI has it, else `docker-compose` (v1): the command and its leading arguments. */
export function composeCommand() {
  if (succeeds('docker', ['compose', 'version'])) return ['docker', ['compose']];
  if (has('docker-compose')) return ['docker-compose', []];
  throw new Error('neither `docker compose` nor `docker-compose` is available (Debian: apt-get install -y docker-compose)');
}
