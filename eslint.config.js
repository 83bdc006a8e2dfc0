import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.tmp/**',
      'bench/.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'API data is untrusted text: never inject HTML.',
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The renderer never imports Node or main-process code: process boundaries are enforced here.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'electron', 'keytar', 'ws'],
              message: 'The renderer has no Node access.',
            },
            {
              group: ['**/main/**', '**/server/**', '**/preload/**', '**/browser-mode/**'],
              message: 'The renderer talks to main only through window.fieldbook (src/shared/ipc.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // unit tests of the renderer run in Node (vitest) and may read their fixture files
    files: ['src/renderer/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'electron',
                'keytar',
                'ws',
                '**/main/**',
                '**/server/**',
                '**/preload/**',
                '**/browser-mode/**',
              ],
              message: 'The renderer talks to main only through window.fieldbook (src/shared/ipc.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:*',
                'electron',
                'keytar',
                '**/main/**',
                '**/renderer/**',
                '**/server/**',
                '**/browser-mode/**',
              ],
              message: 'src/shared is pure and runs everywhere.',
            },
          ],
        },
      ],
    },
  },
  {
    // The browser mode is a Node process like main, built on main's handlers: it serves the BUILT renderer and never
    // imports its code; main (the Electron shell among it) knows nothing of the browser mode.
    files: ['src/browser-mode/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', '**/renderer/**'],
              message:
                'The browser mode is a Node process like main: it serves the built renderer, never imports it, and runs without Electron.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/browser-mode/**'],
              message:
                'main knows nothing of the browser mode: the browser mode is built on main, not the other way.',
            },
          ],
        },
      ],
    },
  },
  {
    // Test helpers live in `testing/` folders and only tests may import them: production
    // code that imports a fake, a fixture or a scenario fails lint. (The typescript-eslint
    // twin of no-restricted-imports, so the process boundaries above keep theirs.)
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/**/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/testing/**', './testing', '../testing'],
              message: 'testing/ holds test helpers: only tests may import them.',
            },
            { group: ['**/e2e/**'], message: 'Product code never imports the e2e suite or its support.' },
            // they zip through fflate's async API, whose blob: workers the CSP refuses (README, "XLSX without ...");
            // tests may use read-excel-file as an independent reader of what we write
            {
              group: ['read-excel-file', 'read-excel-file/*', 'write-excel-file', 'write-excel-file/*'],
              message:
                'XLSX goes through src/shared/spreadsheet-export.ts and features/import/read (no blob: workers under the CSP).',
            },
          ],
        },
      ],
    },
  },
  {
    // No function over about 80 lines (React components included) without a reason written
    // next to it: `// eslint-disable-next-line max-lines-per-function -- <the reason>`.
    // Tests and test helpers are exempt: a `describe` reads as the list of its cases.
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.{mjs,ts}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/**/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
