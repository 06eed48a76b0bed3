module.exports = require('../../jest.preset.js')(__dirname, 'token', { testTimeout: 20000 });
