/**
 * Shared Jest settings for every workspace package: TypeScript through SWC (type checking is
 * `pnpm typecheck`'s job, so tests stay fast) and the `development` export condition, which
 * resolves workspace packages such as @tollgate/envelope to their TypeScript sources.
 */
module.exports = function preset(rootDir, displayName, overrides = {}) {
  return {
    displayName,
    rootDir,
    testEnvironment: 'node',
    // Jest's 5 s suits a unit test on an idle machine; a property of 200 HTTP round trips, beside a
    // CPU hog and three other files, needs more. Tests that mean a time limit assert it themselves.
    testTimeout: 30_000,
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
      ],
    },
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    testEnvironmentOptions: { customExportConditions: ['development', 'node', 'require', 'default'] },
    ...overrides,
  };
};
