module.exports = require('../jest.preset.js')(__dirname, 'gateway', { globalSetup: '<rootDir>/test/global-setup.ts' });
