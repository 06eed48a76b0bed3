// The steps of `npm test` (scripts/check.mjs runs them): lint, the layer rules, types, the Docker
// checks, then the test suites group by group, as jest.config.js lists the projects.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Jest's projects (jest.config.js), by the folder they are in: packages/*, services/*, gateway, e2e. */
export function suiteGroups(root) {
  const groups = new Map();
  for (const project of require(join(root, 'jest.config.js')).projects) {
    const dir = project.replace('<rootDir>/', '');
    const group = dir.split('/')[0];
    // An ES-module package's config (services/logs) comes back as its namespace.
    const loaded = require(join(root, dir, 'jest.config.js'));
    const { displayName } = loaded.default ?? loaded;
    if (!displayName) throw new Error(`${dir}/jest.config.js names no displayName, which npm test selects its suites by`);
    groups.set(group, [...(groups.get(group) ?? []), displayName]);
  }
  return [...groups.entries()];
}

/** The steps, each { name, what, command, args }, for the repository at `root`. */
export function checkSteps(root) {
  const bin = (name) => join(root, 'node_modules', '.bin', name);
  // As `pnpm lint:deps` names them: every package's and service's src/, the gateway's and the scripts.
  const sources = ['gateway/src', ...['services', 'packages'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}/src`)).filter((dir) => existsSync(join(root, dir))), 'scripts'];
  return [
    { name: 'lint', what: 'ESLint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
    { name: 'layers', what: 'dependency-cruiser: imports run downward', command: bin('depcruise'), args: [...sources, '--config', '.dependency-cruiser.cjs'] },
    { name: 'types', what: 'tsc over every TypeScript file', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
    { name: 'docker', what: 'the compose file and Dockerfiles, without an engine (scripts/check-docker.mjs)', command: process.execPath, args: [join(root, 'scripts', 'check-docker.mjs')] },
    ...suiteGroups(root).map(([group, names]) => ({
      name: `tests: ${group}`,
      what: `Jest, ${names.join(', ')}`,
      command: bin('jest'),
      args: ['--ci', '--selectProjects', ...names],
    })),
  ];
}
