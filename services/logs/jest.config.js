import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// The package is ESM, so relative imports end in .js; Jest resolves them to the .ts sources.
export default require('../../jest.preset.js')(import.meta.dirname, 'logs', {
  testTimeout: 30000,
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
});
