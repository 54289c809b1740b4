// @ts-check
// `pnpm lint`: this, then `prettier --check .` (formatting is prettier's alone: no stylistic rules here).
// TypeScript is linted with type information (typescript-eslint's project service reads the
// tsconfig.json nearest each file), for the rules that need it: promises nobody awaits or
// catches, promises handed to callbacks that ignore them, awaits of non-promises.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'test-artifacts/**',
      'docs/**',
      // Dot-files (editors' and tools' temporary copies): TypeScript's globs skip them too.
      '**/.*',
      'deploy/helm/**',
      // Generated (pnpm client:types; the dashboard's validator by its build), checked against their sources.
      'packages/client/src/generated/openapi.ts',
      'packages/client/src/generated/broadcast.ts',
      'packages/dashboard/app/generated/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Promise.all over "a promise, or nothing to wait for" is how stops and flushes are written here.
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // PulseboardError is an Error by its prototype chain, not by `extends Error` (it skips Error's
      // constructor and stack capture for the cheap 4xx refusals: see error-catalog.ts), so the
      // type checker cannot see it is one.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: 'PulseboardError', path: 'packages/contracts/src/error-catalog.ts' }] }],
      // The same blind spot for rejections (it has no allow list); the rejections here pass on
      // PulseboardErrors and errors caught from elsewhere.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // `_`-named bindings are deliberate: `const { secret: _, ...shown } = row` drops a field.
      // A `let` assigned once after closures that read it were built (a hub's callback reading the
      // views made next) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Off: the unsafe-any family and no-explicit-any. Tests read JSON answers as `any` on purpose
      // (test-kit's request<T = any>, the WebSocket client's messages) and assert on their fields;
      // they were some 1,500 findings, nearly all in tests, whose fix is casts that check nothing.
      // Input from outside is validated by JSON schemas at the boundary, not by these rules.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off: fastify handlers and kafkajs callbacks are async to answer with a promise by their
      // contract, whether or not they await anything.
      '@typescript-eslint/require-await': 'off',
      // Off: kafkajs types its payloads' closures (heartbeat, resolveOffset, ...) and topics'
      // decode functions as methods, so destructuring them was every finding, none a `this` bug.
      '@typescript-eslint/unbound-method': 'off',
      // Off: String(x) of unknown values meant to be shown as they are, and ws's RawData (a
      // Buffer with the options used here), were every finding.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Plain JavaScript (the CLI's launcher, the image's healthcheck, loader hooks): no types to use.
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
