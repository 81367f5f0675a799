// Exact, temporary exceptions to a rule: `{ file, import }` pairs (file relative to the repository root, import as
// written). An exception that no longer matches a report is itself reported, so the list only ever shrinks.
import path from 'node:path';

export const exceptionsSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { file: { type: 'string' }, import: { type: 'string' } },
    required: ['file', 'import'],
    additionalProperties: false,
  },
};

export const staleMessage = "The temporary exception for '{{source}}' in {{file}} is no longer needed: delete it from eslint.config.js.";

/** For one linted file: `excuse(source)` says whether to stay silent; `reportStale` runs at Program:exit. */
export function temporaryExceptions(context, root, exceptions = []) {
  const file = path.relative(root, context.filename).split(path.sep).join('/');
  const listed = new Set(exceptions.filter((e) => e.file === file).map((e) => e.import));
  const used = new Set();
  return {
    file,
    excuse(source) {
      if (!listed.has(source)) return false;
      used.add(source);
      return true;
    },
    reportStale(program) {
      for (const source of listed) {
        if (!used.has(source)) context.report({ node: program, messageId: 'staleException', data: { source, file } });
      }
    },
  };
}
