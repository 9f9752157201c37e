// Type-aware lint for every workspace, with the house style's boundaries between packages.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'e2e/artifacts/**',
      'test-results/**',
      'playwright-report/**',
      'data/**',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', '*.ts', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Handlers are async by contract even when they have nothing to await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/contracts', from: './apps', message: 'contracts import no app' },
            { target: './apps/web', from: './apps/server', message: 'the console never imports the server' },
            { target: './apps/server', from: './apps/web', message: 'the server never imports the console' },
            {
              target: './apps/web/src/components',
              from: './apps/web/src/features',
              message: 'shared → features → app',
            },
            { target: './apps/web/src/lib', from: './apps/web/src/features', message: 'shared → features → app' },
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'features do not import the app layer',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 14: a promise left to itself in the gateway or realtime code could end the whole server on
    // one database error. There, no promise may be dropped, not even with void: hand it to detach()
    // (apps/server/src/lib/detach.ts), which logs a rejection, or handle it in place.
    files: ['apps/server/src/gateway/**/*.ts', 'apps/server/src/realtime/**/*.ts', 'apps/server/src/server.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Plain JavaScript (this file, small scripts) has no types to check against.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
);
