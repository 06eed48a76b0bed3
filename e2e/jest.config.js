// The logs service is an ES module whose relative imports end in .js; map them to the .ts sources.
module.exports = require('../jest.preset.js')(__dirname, 'e2e', { moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' } });
