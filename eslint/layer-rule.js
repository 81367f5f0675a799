// The layer table of docs/architecture.md as a lint rule: which folder of src/ may import which.
import path from 'node:path';
import { exceptionsSchema, staleMessage, temporaryExceptions } from './temporary-exceptions.js';

/**
 * One row per layer, innermost first. `may` names the layers a file of this layer may import, besides its own;
 * `packages: false` also forbids every package and Node module. An adapter is one folder under src/adapters/
 * (`adapters/http`, `adapters/storage`, …): it may import its own folder, never another adapter's.
 */
export const LAYERS = [
  { layer: 'core', may: [], packages: false },
  { layer: 'ports', may: ['core'] },
  { layer: 'app', may: ['core', 'ports'] },
  { layer: 'config', may: ['core'] },
  { layer: 'adapters', may: ['core', 'ports', 'app', 'adapters/presenters'] },
  { layer: 'main', may: ['*'] },
];

const byName = new Map(LAYERS.map((row) => [row.layer, row]));

/** Where a file sits: its layer row and its zone (the layer, or `adapters/<name>` for an adapter); null outside src/. */
function locate(root, file) {
  const parts = path.relative(path.join(root, 'src'), file).split(path.sep);
  if (parts[0] === '..' || path.isAbsolute(parts[0]) || parts.length < 2) return null;
  const row = byName.get(parts[0]);
  if (!row) return null;
  const zone = row.layer === 'adapters' ? `adapters/${parts[1].replace(/\.[cm]?[jt]s$/, '')}` : row.layer;
  return { row, zone };
}

const allowedText = (row, own) =>
  [own, ...row.may].join(', ') + (row.packages === false ? ' (no package or Node module)' : ' and packages');

/** @type {import('eslint').Rule.RuleModule} */
export const layerRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer of src/ imports only the layers the table in eslint/layer-rule.js allows.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          exceptions: exceptionsSchema,
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      layer: "Layer {{from}} may import only {{allowed}}; '{{source}}' is in {{to}} (table: eslint/layer-rule.js).",
      package: "Layer {{from}} may import only {{allowed}}; '{{source}}' is a package or Node module (table: eslint/layer-rule.js).",
      staleException: staleMessage,
    },
  },
  create(context) {
    const { root, exceptions = [] } = context.options[0];
    const here = locate(root, context.filename);
    if (!here || here.row.may.includes('*')) return {};
    const temporary = temporaryExceptions(context, root, exceptions);
    const allowed = new Set([here.zone, ...here.row.may]);

    const check = (sourceNode) => {
      const source = sourceNode?.value;
      if (typeof source !== 'string') return;
      let messageId;
      let to;
      if (!source.startsWith('.')) {
        if (here.row.packages !== false) return;
        messageId = 'package';
      } else {
        const target = locate(root, path.resolve(path.dirname(context.filename), source));
        to = target ? target.zone : 'no layer';
        if (target && allowed.has(target.zone)) return;
        messageId = 'layer';
      }
      if (temporary.excuse(source)) return;
      context.report({ node: sourceNode, messageId, data: { from: here.zone, allowed: allowedText(here.row, here.zone), source, to } });
    };
    const fromSource = (node) => check(node.source);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: fromSource,
      TSImportType: (node) => check(node.argument?.literal ?? node.source),
      'Program:exit': temporary.reportStale,
    };
  },
};
