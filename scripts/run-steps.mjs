// Runs named steps one after another, each a command in a process group of its own, saying which
// step it is in, and stops everything a step started on one SIGINT, SIGTERM or SIGHUP to this
// process alone (npm passes Ctrl-C on to it): the step's whole process tree, found in /proc before
// anything is signalled, so that processes a test started in groups of their own go too.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The pids below `pid`, children first found (Linux /proc). */
export function descendants(pid) {
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

// A process that has ended but not been reaped (a zombie: its parent went first, and not every
// init reaps at once) is gone for this purpose.
const alive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** SIGTERM to `pid` and everything below it, then SIGKILL to what is left after `graceMs`. */
export async function stopTree(pid, graceMs) {
  const all = [pid, ...descendants(pid)];
  for (const p of all) {
    try {
      process.kill(p, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && all.some(alive)) await sleep(100);
  for (const p of all.filter(alive)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Gone in between.
    }
  }
}

/**
 * Runs `steps` ({ name, what, command, args }) in order, in `cwd`, each line of this runner's own
 * prefixed with `label`. Every step runs even when one before failed; resolves with the exit code
 * (0 when all passed) after a summary. A stop signal ends the step under way with its tree and
 * resolves with 130, naming the step.
 */
export async function runSteps(steps, { cwd, label = '[steps]', graceMs = 5_000, write = (line) => console.log(line) }) {
  let current;
  let stopping;
  const results = [];
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (stopping) return;
      write(`${label} ${signal}: stopping${current ? ` ${current.step.name}` : ''} and everything it started`);
      stopping = current ? stopTree(current.child.pid, graceMs) : Promise.resolve();
    });
  }
  for (const [index, step] of steps.entries()) {
    if (stopping) break;
    write(`${label} step ${index + 1}/${steps.length}: ${step.name} (${step.what})`);
    const started = Date.now();
    const child = spawn(step.command, step.args, { cwd, stdio: 'inherit', detached: true, env: { ...process.env, ...step.env } });
    current = { step, child };
    const code = await new Promise((resolve) => {
      child.on('error', (err) => {
        write(`${label} ${step.name} could not start: ${err.message}`);
        resolve(1);
      });
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    current = undefined;
    // Stopped: the step's tree is still being ended (what ignored SIGTERM waits for SIGKILL).
    if (stopping) return stopping.then(() => 130);
    results.push({ name: step.name, ok: code === 0, seconds: (Date.now() - started) / 1000 });
    write(`${label} ${step.name}: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  if (stopping) return stopping.then(() => 130);
  write(`${label} summary`);
  for (const r of results) write(`${label}   ${r.name.padEnd(24)} ${r.ok ? 'passed' : 'FAILED'} ${String(Math.round(r.seconds)).padStart(5)} s`);
  return results.every((r) => r.ok) ? 0 : 1;
}
