// Lint rules that encode the architecture, not just style.
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const coreDir = path.join(import.meta.dirname, 'src', 'core');

// src/core is pure: it may import only files inside src/core, never a package or a Node module.
const coreBoundary = {
  meta: { type: 'problem', schema: [], messages: { outside: "src/core may import only from src/core; '{{source}}' is outside." } },
  create(context) {
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const inside = source.startsWith('.') &&
        path.resolve(path.dirname(context.filename), source).startsWith(coreDir + path.sep);
      if (!inside) context.report({ node: node.source, messageId: 'outside', data: { source } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
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
    },
  },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }] },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    plugins: { pacer: { rules: { 'core-boundary': coreBoundary } } },
    rules: {
      'pacer/core-boundary': 'error',
      'no-restricted-globals': ['error', 'process', 'fetch', 'setTimeout', 'setInterval', 'require'],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'Time is passed in (now), never read in src/core.' },
        { object: 'Math', property: 'random', message: 'Randomness is injected, never read in src/core.' }],
    },
  },
);
