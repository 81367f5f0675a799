// Lint rules that encode the architecture, not just style.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { architecture } from './eslint/architecture.js';

// TEMPORARY — delete each entry once the move that removes it has merged (lint reports an entry that no longer
// matches anything). Exact imports that break the layer table or close a type cycle today; nothing else is excused.
const temporary = {
  layers: [
    { file: 'src/app/apply-account-signals.ts', import: '../adapters/webhook/webhook-item.js' },
    { file: 'src/app/apply-status.ts', import: '../adapters/webhook/webhook-item.js' },
    { file: 'src/app/apply-status.ts', import: '../adapters/webhook/to-contact-events.js' },
    { file: 'src/app/process-inbox.ts', import: '../adapters/webhook/parse-webhook.js' },
    { file: 'src/app/process-inbox.ts', import: '../adapters/webhook/to-contact-events.js' },
    { file: 'src/app/process-inbox.ts', import: '../adapters/webhook/webhook-item.js' },
    { file: 'src/app/import-contacts-file.ts', import: '../adapters/import/contact-row.js' },
    { file: 'src/app/import-contacts-file.ts', import: '../adapters/import/open-contact-source.js' },
    { file: 'src/app/import-contacts-file.ts', import: '../adapters/import/phone-line-map.js' },
    { file: 'src/app/import-contacts-file.ts', import: '../adapters/import/source-row.js' },
    { file: 'src/adapters/http/api/contacts-routes.ts', import: '../../cli/contact-command.js' },
    { file: 'src/adapters/http/api/contacts-routes.ts', import: '../../cli/render-contact-explain.js' },
    { file: 'src/adapters/http/api/messages-routes.ts', import: '../../cli/contact-command.js' },
    { file: 'src/adapters/http/webhook-auth.ts', import: '../webhook/signature.js' },
    { file: 'src/adapters/simulator/webhook-delivery.ts', import: '../webhook/signature.js' },
    { file: 'src/adapters/import/import-contacts-command.ts', import: '../cli/exit-codes.js' },
  ],
  typeCycles: [
    { file: 'src/adapters/import/render-import-report.ts', import: './import-contacts-command.js' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'bench/results/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Lines of 140 at most, as in .prettierrc.json; Prettier wraps code, this catches what it leaves (comments).
      // Off until the formatter has run over the tree (hundreds of lines are longer today): then 'off' → 'error'.
      'max-len': ['off', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }] },
  },
  ...architecture({ root: import.meta.dirname, temporary }),
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'fetch', 'setTimeout', 'setInterval', 'require'],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'Time is passed in (now), never read in src/core.' },
        { object: 'Math', property: 'random', message: 'Randomness is injected, never read in src/core.' }],
    },
  },
);
