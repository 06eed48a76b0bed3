module.exports = require('../../jest.preset.js')(__dirname, 'burger', { testTimeout: 20000 });
