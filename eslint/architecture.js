// The shape of the code as lint configuration: the layer table and no import cycles. eslint.config.js uses it
// for the repository; test/lint-rules.test.ts uses the same blocks on a fixture tree.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { layerRule } from './layer-rule.js';
import { typeCycleRule } from './type-cycle-rule.js';

const tests = ['**/*.test.ts', 'test/**'];
const pacer = { rules: { layers: layerRule, 'no-type-cycle': typeCycleRule } };

/**
 * @param {{ root: string, temporary?: { layers?: Exception[], typeCycles?: Exception[] } }} options
 *   root: the directory holding src/; temporary: exact imports allowed for now (see eslint.config.js).
 * @typedef {{ file: string, import: string }} Exception
 */
export function architecture({ root, temporary = {} }) {
  // An exception for a file that is gone is never linted, so it could not report itself: say so here.
  const gone = [...(temporary.layers ?? []), ...(temporary.typeCycles ?? [])].filter((e) => !existsSync(path.join(root, e.file)));
  if (gone.length > 0)
    throw new Error(`Temporary lint exceptions for files that no longer exist; delete them: ${gone.map((e) => e.file).join(', ')}`);
  return [
    {
      files: ['src/**/*.ts'],
      ignores: tests,
      plugins: { pacer },
      rules: { 'pacer/layers': ['error', { root, exceptions: temporary.layers ?? [] }] },
    },
    {
      // src/ only: the cycle check reads every module it reaches, and test helpers are not part of the shape.
      files: ['src/**/*.ts'],
      plugins: { pacer, 'import-x': importX },
      settings: {
        // Sources import './x.js' for './x.ts' (NodeNext): the built-in resolver maps the extension back, and the
        // imported .ts files are read with the parser of the file being linted.
        'import-x/extensions': ['.ts', '.js'],
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } })],
      },
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'pacer/no-type-cycle': ['error', { root, exceptions: temporary.typeCycles ?? [] }],
      },
    },
  ];
}
