import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
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
    // A module is reached only through its index.ts (conventions: "Our own models"), from another module and from
    // every other file of the server alike (app.ts, plugins, jobs, cli, lib).
    files: ['apps/api/src/**/*.ts'],
    plugins: { terrafund },
    rules: { 'terrafund/unit-boundaries': ['error', { units: 'apps/api/src/modules' }] },
  },
  {
    // The server's graph points one way (issue 31, docs/decisions.md "The module graph is linted"): no import
    // cycle, lib/ below everything, modules below plugins and jobs; app.ts, server.ts and the CLI compose them.
    files: ['apps/api/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // What the plugin's TypeScript preset sets (it parses the files it follows), with the resolver its docs give for
      // flat config in place of the legacy 'import-x/resolver'.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['apps/api/tsconfig.json', 'apps/web/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: 'apps/api/src/lib',
              from: ['apps/api/src/modules', 'apps/api/src/plugins', 'apps/api/src/jobs'],
              message: 'lib/ is below every module, plugin and job: it imports none of them.',
            },
            {
              target: 'apps/api/src/modules',
              from: ['apps/api/src/plugins', 'apps/api/src/jobs'],
              message: 'A module imports no plugin and no job: what both need belongs in lib/ (or in a module).',
            },
          ],
        },
      ],
    },
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
