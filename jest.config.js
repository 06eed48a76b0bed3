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
  projects: roots
    .filter((dir) => fs.existsSync(path.join(__dirname, dir, 'jest.config.js')))
    .map((dir) => `<rootDir>/${dir}`),
};
