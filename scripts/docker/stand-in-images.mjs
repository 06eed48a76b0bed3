// Local stand-ins for the public base images, for CI on machines that cannot reach the public image
// registry. Each is tagged with the name a Dockerfile or the compose file uses, so both build and run
// unchanged; none of this goes into the project's images. See gateway/docs/operating.md, "Containers".
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { output, run, succeeds } from './engine.mjs';

const BASE = 'tollgate-ci/bookworm:minbase';
// Part of every stand-in's label: a base made differently makes them all again.
const BASE_KEY = 'bookworm-minbase 2';
const LABEL = 'tollgate.stand-in';
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * The base images the Dockerfiles (FROM, with their ARG defaults) and the compose file (`image:` of
 * a service that is not built here) name, stages of a Dockerfile left out.
 */
export function baseImageNames(root, dockerfiles, composeFile) {
  const names = new Set();
  for (const file of dockerfiles) {
    const text = readFileSync(join(root, file), 'utf8');
    const args = Object.fromEntries([...text.matchAll(/^ARG (\w+)=(\S+)/gm)].map((m) => [m[1], m[2]]));
    const stages = new Set([...text.matchAll(/^FROM \S+ AS (\S+)/gim)].map((m) => m[1]));
    for (const [, image] of text.matchAll(/^FROM (\S+)/gim)) {
      const name = image.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => args[a ?? b] ?? '');
      if (!stages.has(name)) names.add(name);
    }
  }
  const compose = readFileSync(join(root, composeFile), 'utf8');
  for (const [, image] of compose.matchAll(/^ {4}image: (\S+)$/gm)) if (!image.startsWith('tollgate/')) names.add(image);
  return [...names];
}

/** What a stand-in is made of, as a short hash: a changed Node or CA bundle makes it again. */
function nodeKey() {
  return createHash('sha256').update(process.version).update(readFileSync(CA_BUNDLE)).digest('hex').slice(0, 16);
}

/** The stand-in label of a local image: null when there is no such image, '' for an image that is not a stand-in. */
function labelOf(name) {
  if (!succeeds('docker', ['image', 'inspect', name])) return null;
  return output('docker', ['image', 'inspect', '-f', `{{index .Config.Labels "${LABEL}"}}`, name]).trim().replace('<no value>', '');
}

function buildFrom(name, dockerfile, files, log) {
  const context = mkdtempSync(join(tmpdir(), 'tollgate-stand-in-'));
  try {
    for (const [target, source] of Object.entries(files)) {
      mkdirSync(dirname(join(context, target)), { recursive: true });
      if (typeof source === 'string') cpSync(source, join(context, target), { recursive: true, verbatimSymlinks: true });
      else writeFileSync(join(context, target), source.text, { mode: source.mode ?? 0o644 });
    }
    writeFileSync(join(context, 'Dockerfile'), dockerfile);
    log(`building the stand-in ${name}`);
    run('docker', ['build', '-q', '-t', name, context], { env: { ...process.env, DOCKER_BUILDKIT: '0' } });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/** Debian bookworm, minimal: debootstrap from Debian's mirror, imported as an image. */
function ensureBase(log) {
  if (labelOf(BASE) === BASE_KEY) return;
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bookworm-'));
  try {
    log(`debootstrap of Debian bookworm (minbase) for ${BASE}, about a minute`);
    run('debootstrap', ['--variant=minbase', 'bookworm', dir, 'http://deb.debian.org/debian'], { stdio: ['ignore', 'ignore', 'inherit'] });
    // What Debian's own slim images leave out too: package lists (apt-get update fetches them), the
    // downloaded packages, documentation and translations; about 95 of 167 MB.
    for (const path of ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale']) {
      rmSync(join(dir, path), { recursive: true, force: true });
      mkdirSync(join(dir, path), { recursive: true });
    }
    mkdirSync(join(dir, 'var/cache/apt/archives/partial'), { recursive: true });
    mkdirSync(join(dir, 'var/lib/apt/lists/partial'), { recursive: true });
    const tar = `tar -C '${dir}' -c . | docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'LABEL ${LABEL}="${BASE_KEY}"' --change 'CMD ["bash"]' - ${BASE}`;
    run('sh', ['-c', tar], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `node:<tag>`: bookworm with this machine's Node, npm, corepack and Node headers, a `node` user (uid 1000) and the CA bundle. */
function ensureNode(name, log) {
  const key = `node ${process.version} ${nodeKey()}, ${BASE_KEY}`;
  const label = labelOf(name);
  if (label === '' || label === key) return;
  const prefix = dirname(dirname(process.execPath));
  const modules = join(prefix, 'lib', 'node_modules');
  const tools = readdirSync(modules).filter((m) => m === 'npm' || m === 'corepack');
  buildFrom(
    name,
    [
      `FROM ${BASE}`,
      `COPY ca-certificates.crt ${CA_BUNDLE}`,
      'COPY node /usr/local/bin/node',
      ...tools.map((tool) => `COPY ${tool} /usr/local/lib/node_modules/${tool}`),
      'COPY include /usr/local/include/node',
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\',
      ' && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\',
      ...(tools.includes('corepack') ? [' && ln -s ../lib/node_modules/corepack/dist/corepack.js /usr/local/bin/corepack \\'] : []),
      ' && groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/sh node',
      // TLS to the npm registry from inside a build passes a proxy with its own authority here.
      `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE} NODE_VERSION=${process.version.slice(1)}`,
      `LABEL ${LABEL}="${key}"`,
      'CMD ["node"]',
      '',
    ].join('\n'),
    {
      'ca-certificates.crt': CA_BUNDLE,
      node: process.execPath,
      ...Object.fromEntries(tools.map((tool) => [tool, join(modules, tool)])),
      include: join(prefix, 'include', 'node'),
    },
    log,
  );
}

/** `redis:<tag>`: Debian's redis-server, started as the official image starts it (protected mode off: containers reach it over a bridge). */
function ensureRedis(name, log) {
  const key = `redis debian-bookworm 1, ${BASE_KEY}`;
  const label = labelOf(name);
  if (label === '' || label === key) return;
  const entrypoint = '#!/bin/sh\nif [ "$1" = redis-server ]; then shift; set -- redis-server "$@" --protected-mode no; fi\nexec "$@"\n';
  buildFrom(
    name,
    [
      `FROM ${BASE}`,
      'RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/* && mkdir -p /data',
      'COPY entrypoint /usr/local/bin/docker-entrypoint.sh',
      'WORKDIR /data',
      `LABEL ${LABEL}="${key}"`,
      'ENTRYPOINT ["docker-entrypoint.sh"]',
      'CMD ["redis-server"]',
      '',
    ].join('\n'),
    { entrypoint: { text: entrypoint, mode: 0o755 } },
    log,
  );
}

/**
 * Makes a local stand-in for each of `names` that is missing (an official image already present is
 * left as it is; a stand-in made from another Node is made again). Throws for a name it cannot stand in for.
 */
export function ensureStandIns(names, log) {
  const unknown = names.filter((name) => !/^(node|redis):/.test(name));
  if (unknown.length > 0) throw new Error(`no local stand-in is known for ${unknown.join(', ')}`);
  const wanted = names.filter((name) => {
    const label = labelOf(name);
    if (label === '') return false;
    // Not here at all: the official image, when the public registry can be reached.
    if (label === null && succeeds('docker', ['pull', '-q', name])) {
      log(`pulled ${name}`);
      return false;
    }
    return true;
  });
  if (wanted.length === 0) return;
  ensureBase(log);
  for (const name of wanted) {
    if (name.startsWith('node:')) ensureNode(name, log);
    else ensureRedis(name, log);
  }
}
