import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// typescript-eslint's type-checked rules over the whole repository (one program: tsconfig.json), Prettier for layout.
export default defineConfig(
  { ignores: ['**/node_modules/', '**/dist/', 'protos/gen/', '.wms/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // gRPC handlers, interface methods and test stand-ins are async by contract whether or not they await; the rules
      // that catch real promise mistakes (no-floating-promises, no-misused-promises) stay on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read JSON answers and fixtures as `any` and check them with expect(), which is their type check.
    files: ['**/*.test.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Shipped code reads a screen at a time; tests may hold a scenario's steps together.
    files: ['**/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // A routes file is one table, a row per route (path, schemas, access, handler): data read row by row, which the
    // rule above would only push into arbitrary pieces. A row's handler is short or calls a named function.
    files: ['gateway/src/routes/*.routes.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
