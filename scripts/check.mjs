#!/usr/bin/env node
// `npm test` (through scripts/bootstrap.mjs) and `pnpm check`: lint, the layer rules, types, the
// Docker checks, then the test suites group by group (packages, services, gateway, e2e), saying
// which step it is in; one Ctrl-C stops the step under way and everything it started.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSteps } from './run-steps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Jest's projects (jest.config.js), by the folder they are in: packages/*, services/*, gateway, e2e. */
function suiteGroups() {
  const groups = new Map();
  for (const project of require(join(root, 'jest.config.js')).projects) {
    const dir = project.replace('<rootDir>/', '');
    const group = dir.split('/')[0];
    const { displayName } = require(join(root, dir, 'jest.config.js'));
    groups.set(group, [...(groups.get(group) ?? []), displayName]);
  }
  return [...groups.entries()];
}

// As `pnpm lint:deps` names them: every package's and service's src/, the gateway's and the scripts.
const sources = ['gateway/src', ...['services', 'packages'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}/src`)).filter((dir) => existsSync(join(root, dir))), 'scripts'];

const steps = [
  { name: 'lint', what: 'ESLint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'layers', what: 'dependency-cruiser: imports run downward', command: bin('depcruise'), args: [...sources, '--config', '.dependency-cruiser.cjs'] },
  { name: 'types', what: 'tsc over every TypeScript file', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'docker', what: 'the compose file and Dockerfiles, without an engine (scripts/check-docker.mjs)', command: process.execPath, args: [join(root, 'scripts', 'check-docker.mjs')] },
  ...suiteGroups().map(([group, names]) => ({
    name: `tests: ${group}`,
    what: `Jest, ${names.join(', ')}`,
    command: bin('jest'),
    args: ['--ci', '--selectProjects', ...names],
  })),
];

const code = await runSteps(steps, { cwd: root, label: '[npm test]' });
if (code === 130) console.log('[npm test] stopped: the step under way and everything it started have ended');
process.exit(code);
