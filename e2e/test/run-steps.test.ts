import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm test`'s runner (scripts/run-steps.mjs, driven by scripts/check.mjs): the step it is in, and one
// stop signal to it alone ending the step's whole tree, even what a test started in a group of its own.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-run-steps-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A step that starts a child, a child in a process group of its own, and one that ignores SIGTERM, prints their pids and waits. */
const TREE = `
const { spawn } = require('node:child_process');
const sleeper = (extra, detached) => spawn(process.execPath, ['-e', extra + 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached }).pid;
const pids = [process.pid, sleeper('', false), sleeper('', true), sleeper('process.on("SIGTERM", () => {});', false)];
console.log('PIDS ' + pids.join(' '));
setInterval(() => {}, 1000);
`;

function driver(steps: unknown[]): { pid: number; output: () => string; waitFor: (text: string) => Promise<void>; exited: Promise<number | null> } {
  const file = join(dir, `driver-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `import { runSteps } from ${JSON.stringify(join(ROOT, 'scripts', 'run-steps.mjs'))};\nprocess.exit(await runSteps(${JSON.stringify(steps)}, { cwd: ${JSON.stringify(dir)}, label: '[t]', graceMs: 1500 }));\n`);
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = async (text: string) => {
    const deadline = Date.now() + 20_000;
    while (!printed.includes(text)) {
      if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} in:\n${printed}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { pid: child.pid!, output: () => printed, waitFor, exited };
}

/** Whether a process runs: an ended one its parent has not reaped yet (a zombie) does not. */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Every process below `pid` (Linux /proc; the main thread's children, where Node spawns them). */
function below(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...below(child)]);
}

const node = (code: string) => ({ command: process.execPath, args: ['-e', code] });

describe('npm test’s steps', () => {
  it('when the steps are listed, then they are lint, layers, types and docker, then one Jest run per group that together select every package with tests', () => {
    const listed = execFileSync(process.execPath, ['--input-type=module', '-e', `import { checkSteps } from ${JSON.stringify(join(ROOT, 'scripts', 'check-steps.mjs'))}; console.log(JSON.stringify(checkSteps(${JSON.stringify(ROOT)})))`], { encoding: 'utf8' });
    const steps = JSON.parse(listed) as { name: string; args: string[] }[];
    expect(steps.map((s) => s.name)).toEqual(['lint', 'layers', 'types', 'docker', 'tests: packages', 'tests: services', 'tests: gateway', 'tests: e2e']);
    const selected = steps.filter((s) => s.name.startsWith('tests:')).flatMap((s) => s.args.slice(s.args.indexOf('--selectProjects') + 1));
    const withTests = ['packages', 'services'].flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => existsSync(join(ROOT, dir, name, 'jest.config.js')))).concat('gateway', 'e2e');
    expect(selected.sort()).toEqual(withTests.sort());
  });

  it('when steps run, then each says which it is, every step runs though one failed, and the summary and exit code say which failed', async () => {
    const run = driver([
      { name: 'lint', what: 'a step that passes', ...node('') },
      { name: 'types', what: 'a step that fails', ...node('process.exit(3)') },
      { name: 'tests: e2e', what: 'a step after it', ...node('') },
    ]);
    expect(await run.exited).toBe(1);
    const out = run.output();
    for (const line of ['[t] step 1/3: lint (a step that passes)', '[t] types: FAILED (exit code 3)', '[t] step 3/3: tests: e2e (a step after it)', '[t] summary']) expect(out).toContain(line);
    expect(out).toMatch(/\[t\] +types +FAILED +\d+ s/);
  });

  it('when one SIGINT is sent to the runner alone, then the step under way and every process it started end, its own group’s and one ignoring SIGTERM too, and the runner says so and exits 130', async () => {
    const run = driver([{ name: 'tests: gateway', what: 'a step with a tree of processes', ...node(TREE) }, { name: 'never', what: 'not reached', ...node('') }]);
    await run.waitFor('PIDS ');
    const pids = /PIDS ([\d ]+)/.exec(run.output())![1]!.trim().split(' ').map(Number);
    expect(pids.every(alive)).toBe(true);
    process.kill(run.pid, 'SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.output()).toContain('[t] SIGINT: stopping tests: gateway and everything it started');
    expect(run.output()).not.toContain('never');
    expect(pids.filter(alive)).toEqual([]);
  });

  it('when `npm test` itself gets one SIGINT during its first step, then npm, the runner and the step all end', async () => {
    const child = spawn('npm', ['test'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 40_000;
      while (!printed.includes('[npm test] step 1/')) {
        if (Date.now() > deadline) throw new Error(`npm test did not start its first step:\n${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const tree = below(child.pid!);
      expect(tree.length).toBeGreaterThan(1);
      process.kill(child.pid!, 'SIGINT');
      await exited;
      expect(printed).toContain('[npm test] SIGINT: stopping lint and everything it started');
      expect(tree.filter(alive)).toEqual([]);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone, with its group.
      }
    }
  });
});
