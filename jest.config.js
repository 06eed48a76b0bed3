/** Runs every workspace package's suite; each package has its own jest.config.js. */
const fs = require('node:fs');
const path = require('node:path');

const roots = ['packages', 'services'].flatMap((dir) =>
  fs.existsSync(path.join(__dirname, dir))
    ? fs.readdirSync(path.join(__dirname, dir)).map((name) => path.join(dir, name))
    : [],
);
for (const dir of ['gateway', 'e2e']) if (fs.existsSync(path.join(__dirname, dir))) roots.push(dir);

module.exports = {
  // Most suites wait on real time, child processes and sockets, not on the CPU, so more of them run
  // at once than there are cores (Jest's default under CI is cores - 1: one worker on two cores).
  // Measured in gateway/docs/testing.md (Speed).
  maxWorkers: 4,
  // Jest takes a test's time limit from here when it runs the projects together (each project's own
  // testTimeout counts only when that package's config is run alone): see jest.preset.js.
  testTimeout: 30_000,
  projects: roots
    .filter((dir) => fs.existsSync(path.join(__dirname, dir, 'jest.config.js')))
    .map((dir) => `<rootDir>/${dir}`),
};
