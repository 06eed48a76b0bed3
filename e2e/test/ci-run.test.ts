import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `.ci/run` proves that nothing reads outside the repository: beside anything else, it runs from a
// clone of HEAD with nothing beside it; the suite runs on Node 24, a part of it on this machine's
// Node. npm, npx, pnpm, the Node 24 launcher and the Docker check are stand-ins here that say where
// they ran and what they could see.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-ci-run-'));
  const checkout = join(dir, 'checkout');
  execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, checkout]);
  // This checkout's .ci/run, committed in the scratch clone: the script runs a clone of HEAD.
  copyFileSync(join(ROOT, '.ci', 'run'), join(checkout, '.ci', 'run'));
  execFileSync('git', ['-c', 'user.email=ci@tollgate.test', '-c', 'user.name=ci', 'commit', '-q', '--allow-empty', '-am', 'the .ci/run under test'], { cwd: checkout });
  mkdirSync(join(dir, 'shared'));
  writeFileSync(join(dir, 'shared', 'big-mac-full-index.csv'), 'what a test must not read\n');
  const stub = join(dir, 'stub');
  mkdirSync(stub);
  const script = (name: string, body: string) => {
    writeFileSync(join(stub, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(stub, name), 0o755);
  };
  script('npm', 'echo "npm $* in $PWD, beside it: $(ls -A .. | tr "\\n" " ")"; [ -e ../shared ] && echo "../shared is there"; exit ${NPM_EXIT:-0}');
  script('pnpm', '[ "$1" = --version ] && echo 9.15.9 || echo "pnpm $*"');
  // scripts/with-node.mjs fetches a Node release from the registry: here it says which and runs the command.
  script('node', `case "$*" in *docker-check.mjs*) echo "docker check in $PWD";; *with-node.mjs*) echo "on Node $2:"; shift 2; exec "$@";; *native-modules.mjs*) echo "native modules for this Node";; *) exec ${JSON.stringify(process.execPath)} "$@";; esac`);
  script('npx', 'echo "npx $* in $PWD"; exit ${NPX_EXIT:-0}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ciRun(env: Record<string, string> = {}): { status: number | null; output: string } {
  // When this suite itself runs under an isolated .ci/run (CI's checkout has folders beside it), its
  // marker is in our environment; the .ci/run under test must start as a fresh one would.
  const { TOLLGATE_CI_ISOLATED: _outer, ...outside } = process.env;
  const res = spawnSync(join(dir, 'checkout', '.ci', 'run'), [], { env: { ...outside, PATH: `${join(dir, 'stub')}:${process.env.PATH}`, TMPDIR: dir, ...env }, encoding: 'utf8' });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('.ci/run', () => {
  it('when the checkout has a folder beside it, then the tests and the Docker check run in a clone of HEAD with nothing beside it, and the clone is removed', () => {
    const { status, output } = ciRun();
    expect(status).toBe(0);
    const clone = /running from a clone of [0-9a-f]{7} in (\S+), with nothing beside it/.exec(output)?.[1];
    expect(clone).toBeDefined();
    expect(output).toContain(`on Node 24:\nnpm test in ${clone}, beside it: tollgate `);
    expect(output).not.toContain('../shared is there');
    // Then a part of the suite on this machine's Node, with the native module built for it.
    expect(output).toMatch(/native modules for this Node\nnpx jest --ci e2e\/test\/stack-script\.e2e\.test\.ts gateway\/test\/data\/sqlite in /);
    expect(output).toContain(`docker check in ${clone}`);
    expect(output.indexOf('npm test in')).toBeLessThan(output.indexOf('npx jest'));
    expect(output.indexOf('npx jest')).toBeLessThan(output.indexOf('docker check in'));
    expect(readdirSync(dir).filter((name) => name.startsWith('tollgate-ci.'))).toEqual([]);
  });

  it('when npm test fails in the clone, then .ci/run exits with its code', () => {
    const { status, output } = ciRun({ NPM_EXIT: '3' });
    expect(status).toBe(3);
    expect(output).not.toContain('docker check in');
  });

  it('when the tests on Node 20 fail, then .ci/run exits with their code before the Docker check', () => {
    const { status, output } = ciRun({ NPX_EXIT: '4' });
    expect(status).toBe(4);
    expect(output).not.toContain('docker check in');
  });
});
