#!/usr/bin/env node
// Checks the container set-up without a Docker engine: `docker-compose config` validates the compose
// file, and each Dockerfile is held to the hadolint rules that matter here (hadolint itself is not
// packaged for Debian and cannot be downloaded on these machines). Exits 1 listing every finding.
// Usage: node scripts/check-docker.mjs [compose file, default docker-compose.yml; build contexts are
// relative to the repository root either way].
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const composeFile = resolve(process.argv[2] ?? join(root, 'docker-compose.yml'));
const findings = [];
// The demo profile's stand-ins: test support code run with tsx, never a production image.
const STAND_INS = 'demo';
const problem = (where, what) => findings.push(`${where}: ${what}`);

// The compose file requires both secrets; the check supplies its own, random and long enough for the
// deployables. They override the caller's and a local .env's, so neither decides the result.
const SECRETS = ['ADMIN_TOKEN', 'PROXY_SECRET'];
const testSecrets = Object.fromEntries(SECRETS.map((name) => [name, `check-docker-${randomBytes(16).toString('hex')}`]));
const composeArgs = ['--project-directory', root, '-f', composeFile];
const composeEnv = { ...process.env, ...testSecrets };

let compose;
try {
  execFileSync('docker-compose', [...composeArgs, 'config', '-q'], { cwd: root, env: composeEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  compose = execFileSync('docker-compose', [...composeArgs, 'config'], { cwd: root, env: composeEnv, encoding: 'utf8' });
} catch (err) {
  const detail = err.code === 'ENOENT' ? 'docker-compose not found (Debian: apt-get install -y docker-compose)' : String(err.stderr ?? err.message).trim();
  console.error(`check-docker: ${composeFile} is not valid: ${detail}`);
  process.exit(1);
}

// A default for a secret (`${ADMIN_TOKEN:-...}`, or a bare `$ADMIN_TOKEN` that compose fills with "")
// starts an admin API or a service with a secret anyone can read; only `${VAR:?hint}` requires it.
const raw = readFileSync(composeFile, 'utf8');
for (const name of SECRETS) {
  const uses = [...raw.matchAll(new RegExp(`\\$\\{${name}([^}]*)\\}|\\$${name}\\b`, 'g'))];
  if (uses.length === 0) problem(`compose ${name}`, `is not taken from the environment; use \${${name}:?set ${name} to a secret of at least 16 characters}`);
  for (const use of uses) {
    if (!/^:\?\S/.test(use[1] ?? '')) problem(`compose ${name}`, `${use[0]} lets compose start without it; require it: \${${name}:?set ${name} to a secret of at least 16 characters}`);
  }
}

// `docker-compose config` prints YAML; the few facts checked here are read line by line.
const services = {};
let current;
let section;
for (const line of compose.split('\n')) {
  if (/^services:/.test(line)) section = 'services';
  else if (/^\S/.test(line)) section = undefined;
  if (section !== 'services') continue;
  const svc = /^ {2}([a-z][\w-]*):$/.exec(line);
  if (svc) services[(current = svc[1])] = { lines: [] };
  else if (current) services[current].lines.push(line);
}
for (const [name, { lines }] of Object.entries(services)) {
  const text = lines.join('\n');
  if (!/\n? {4}healthcheck:/.test(text)) problem(`compose ${name}`, 'has no healthcheck');
  if (!/\n? {4}restart: /.test(text)) problem(`compose ${name}`, 'has no restart policy');
  // The gateway, on Redis or (the sqlite and demo profiles) on its own file: the only services that
  // publish a port, with the demo's stand-ins, whose stripe-local serves Checkout pages to the browser.
  const gateway = /^gateway(-|$)/.test(name);
  const standIns = name === STAND_INS;
  if (!gateway && !standIns && /\n? {4}ports:/.test(text)) problem(`compose ${name}`, 'publishes a port; only the gateway (and the demo stand-ins) may');
  // The value set must be the one given: a literal here would be a secret published in the repository.
  if (name !== 'redis' && !standIns && !text.includes(`PROXY_SECRET: ${testSecrets.PROXY_SECRET}`)) problem(`compose ${name}`, 'does not take PROXY_SECRET from the environment');
  if (gateway && !text.includes(`ADMIN_TOKEN: ${testSecrets.ADMIN_TOKEN}`)) problem(`compose ${name}`, 'does not take ADMIN_TOKEN from the environment');
  const dockerfile = /dockerfile: (\S+)/.exec(text)?.[1];
  if (name !== 'redis' && !dockerfile) problem(`compose ${name}`, 'is not built from a Dockerfile of this repository');
  if (dockerfile) checkDockerfile(dockerfile, { production: !standIns });
}
if (!services.gateway || !/ports:/.test(services.gateway.lines.join('\n'))) problem('compose gateway', 'must publish its port');

function checkDockerfile(path, { production }) {
  const file = join(root, path);
  if (!existsSync(file)) return problem(path, 'does not exist');
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim());
  const froms = lines.filter((l) => /^FROM /i.test(l));
  if (froms.length < 2) problem(path, 'is not multi-stage (build stage + runtime stage)');
  for (const from of froms) {
    const image = from.split(/\s+/)[1] ?? '';
    if (!/:/.test(image) || /:latest$/.test(image)) problem(path, `DL3006/DL3007 pin the base image tag: ${from}`);
  }
  const finalStage = lines.slice(lines.lastIndexOf(froms.at(-1)));
  const user = finalStage.filter((l) => /^USER /i.test(l)).at(-1);
  if (!user || /^USER (root|0)\b/i.test(user)) problem(path, 'DL3002 the runtime stage must run as a non-root USER');
  if (!finalStage.some((l) => /^HEALTHCHECK /i.test(l))) problem(path, 'the runtime stage has no HEALTHCHECK');
  const cmd = finalStage.filter((l) => /^(CMD|ENTRYPOINT) /i.test(l)).at(-1);
  if (!cmd || !/^(CMD|ENTRYPOINT) \[/.test(cmd)) problem(path, 'DL3025 CMD must use the JSON (exec) form');
  for (const l of lines) {
    if (/^ADD /i.test(l)) problem(path, `DL3020 use COPY, not ADD: ${l}`);
    if (/^WORKDIR (?!\/)/i.test(l)) problem(path, `DL3000 WORKDIR must be absolute: ${l}`);
    if (/^RUN .*\bcd /i.test(l)) problem(path, `DL3003 use WORKDIR instead of cd: ${l}`);
    if (/npm (i|install) -g (?!\S+@\d)/.test(l)) problem(path, `DL3016 pin global npm packages: ${l}`);
    if (/apt-get install(?!.*--no-install-recommends)/.test(l)) problem(path, `DL3015 apt-get install needs --no-install-recommends: ${l}`);
    if (/pnpm install(?!.*--frozen-lockfile)/.test(l)) problem(path, `pnpm install must use --frozen-lockfile: ${l}`);
  }
  if (production && !lines.some((l) => /pnpm .*deploy --prod/.test(l))) problem(path, 'the runtime stage must come from `pnpm deploy --prod` (production dependencies only)');
  for (const l of finalStage.filter((x) => /^COPY --from/i.test(x))) {
    if (!/--chown=/.test(l)) problem(path, `files copied into the runtime stage must be owned by the runtime user: ${l}`);
  }
}

if (findings.length) {
  console.error(`check-docker: ${findings.length} finding(s)\n${findings.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log(`check-docker: ${relative(root, composeFile)} valid, ADMIN_TOKEN and PROXY_SECRET required; ${Object.keys(services).length} services and their Dockerfiles pass`);
