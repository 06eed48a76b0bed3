import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Config is parsed once, in config.ts; only the composition root hands it the environment.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through config.ts; only main.ts passes process.env.' }],
    },
  },
  {
    files: ['**/src/main.ts', '**/src/cli.ts', '**/src/config.ts', '**/bench/**', '**/examples/**', 'scripts/**', '**/*.test.ts', '**/test/**', '*.js', '**/jest.config.js'],
    rules: { 'no-restricted-properties': 'off', 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The browser modules of the developer portal, the operators' console and what they share (served as they are, no build step).
    files: ['gateway/portal/**/*.js', 'gateway/console/**/*.js', 'gateway/web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(['window', 'document', 'location', 'history', 'navigator', 'fetch', 'URL', 'URLSearchParams', 'Node', 'Element', 'HTMLElement', 'Blob', 'setTimeout'].map((name) => [name, 'readonly'])),
    },
  },
);
