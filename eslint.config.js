import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { terrafund } from './eslint-rules/index.js';

/** Config files whose tool loads their default export (vite, vitest, playwright, drizzle, eslint). */
const CONFIG_FILES = ['**/*.config.{ts,js,mjs}', 'eslint.config.js'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**', 'apps/api/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },

  // What holds the shape (issue 13): each of these fails `npm run lint`, and so `npm test`.
  {
    files: ['apps/**', 'packages/**', 'scripts/**', 'eslint-rules/**'],
    plugins: { terrafund },
    rules: { 'terrafund/kebab-case-files': 'error' },
  },
  {
    // A module reaches another only through its index.ts (conventions: "Our own models").
    files: ['apps/api/src/modules/**/*.ts'],
    plugins: { terrafund },
    rules: { 'terrafund/unit-boundaries': ['error', { units: 'apps/api/src/modules' }] },
  },
  {
    // A feature never imports another feature's internals (conventions habit 8).
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { terrafund },
    rules: { 'terrafund/unit-boundaries': ['error', { units: 'apps/web/src/features', aliases: { '@/': 'apps/web/src/' } }] },
  },
  {
    // The shared contracts sit below both apps and know neither.
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@terrafund/api', '@terrafund/api/**', '@terrafund/web', '@terrafund/web/**'],
              message: 'packages/contracts imports nothing from the apps.',
            },
          ],
        },
      ],
    },
  },
  {
    // Named exports only, so a name means one thing everywhere; React pages (lazy routes) and tool configs are
    // the exceptions because what loads them asks for the default export.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['apps/web/src/app/routes/**', ...CONFIG_FILES],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use a named export (default exports only for React pages and tool configs).' },
        { selector: 'ExportNamedDeclaration > ExportSpecifier[exported.name="default"]', message: 'Use a named export (default exports only for React pages and tool configs).' },
      ],
    },
  },

  {
    // Vitest also accepts named `setup`/`teardown` exports from a globalSetup file.
    files: ['apps/api/test/global-setup.ts', 'apps/api/test/processes/global-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
