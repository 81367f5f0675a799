// Cycles closed by a type-only import. import-x/no-cycle skips type-only imports (they vanish at run time),
// but a cycle of types is the same tangle of modules: this rule reports the type-only import that closes one.
// Together the two rules report every cycle once: import-x the all-value ones, this rule the rest.
import fs from 'node:fs';
import path from 'node:path';
import { exceptionsSchema, staleMessage, temporaryExceptions } from './temporary-exceptions.js';

// Each file's relative imports, read from disk. Kept for a few seconds, so one lint run reads each file about
// once and a long-lived process (an editor) still sees edits.
const CACHE_MS = 5_000;
const cache = new Map();
// Static imports and re-exports (`… from '…'`, `import '…'`) at the start of a line, and `import('…')`. A scan,
// not a parse: on this tree it finds exactly what TypeScript's preProcessFile finds, sixty times faster.
const IMPORT =
  /^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom[ \t]*['"]([^'"]+)['"]|^[ \t]*import[ \t]*['"]([^'"]+)['"]|\bimport\([ \t]*['"]([^'"]+)['"][ \t]*\)/gm;

/** The files a module imports (every kind: value, type, re-export, dynamic), as absolute .ts paths. */
function importsOf(file, now) {
  const hit = cache.get(file);
  if (hit && now - hit.at < CACHE_MS) return hit.imports;
  let imports = [];
  try {
    const text = fs.readFileSync(file, 'utf8');
    imports = [...text.matchAll(IMPORT)].map((m) => resolve(file, m[1] ?? m[2] ?? m[3])).filter(Boolean);
  } catch {
    // A file that cannot be read imports nothing; the TypeScript compiler reports the missing module.
  }
  cache.set(file, { at: now, imports });
  return imports;
}

/** './x.js' → './x.ts' (NodeNext) or './x/index.ts'; packages and unresolvable specifiers → null. */
function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** The chain of files from `start` back to `target`, or null when `target` is not reachable. */
function pathBack(start, target, now) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of importsOf(queue[i], now)) {
      if (next === target) {
        const chain = [];
        for (let at = queue[i]; at !== null; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, queue[i]);
        queue.push(next);
      }
    }
  }
  return null;
}

const typeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/** @type {import('eslint').Rule.RuleModule} */
export const typeCycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle, type-only imports included (import-x/no-cycle covers the all-value ones).' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, exceptions: exceptionsSchema },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      cycle: "Import cycle through type-only import '{{source}}': {{chain}} imports this file back.",
      staleException: staleMessage,
    },
  },
  create(context) {
    const { root, exceptions } = context.options[0];
    const temporary = temporaryExceptions(context, root, exceptions);
    const file = context.filename;
    const now = Date.now();
    const check = (node) => {
      if (!node.source || !typeOnly(node)) return;
      const target = resolve(file, node.source.value);
      if (!target) return;
      const chain = pathBack(target, file, now);
      if (!chain || temporary.excuse(node.source.value)) return;
      const names = chain.map((f) => path.relative(path.dirname(file), f).split(path.sep).join('/'));
      context.report({ node: node.source, messageId: 'cycle', data: { source: node.source.value, chain: names.join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, 'Program:exit': temporary.reportStale };
  },
};
