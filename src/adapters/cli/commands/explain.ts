import { lookupError } from '../../../core/error-catalogue/index.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure } from '../exit-codes.js';
import { renderErrorPage } from '../render-error-page.js';

export const explainCommand: CliCommand = {
  path: ['explain'],
  define: (c) =>
    c
      .description('Explain a Meta error code or pasted error text: meaning, cause, whether a retry helps, what to do')
      .argument('<code-or-text...>', 'a code such as 131049, or the message Meta returned')
      .option('--json', 'print the catalogue entry as JSON'),
  run:
    ({ out }) =>
    (words: string[], opts: JsonOption) =>
      out(explain(words.join(' '), opts.json === true)),
};

/** `pacer explain <code | message text>`: the catalogue page, or every close match for pasted text. */
function explain(query: string, json: boolean): string {
  const trimmed = query.trim();
  if (trimmed === '') throw new CliFailure('Give an error code (e.g. 131049) or the error text Meta returned.', 2);
  const result = lookupError(trimmed);
  const best = result.matches[0];
  if (best === undefined) {
    throw new CliFailure(
      `No catalogue entry matches ${result.by === 'code' ? `code ${trimmed}` : `"${trimmed.slice(0, 80)}"`}. Try the numeric code from error.code, or run \`pacer explain --list\`.`,
    );
  }
  const top = result.matches.filter((m) => m.score >= best.score - 0.05).slice(0, 3);
  if (json) return JSON.stringify(top.length === 1 ? best.entry : top.map((m) => m.entry), null, 2);
  const others = result.matches.slice(top.length, top.length + 3).map((m) => m.entry.code);
  const pages = top.map((m) => renderErrorPage(m.entry)).join('\n\n');
  return others.length === 0 ? pages : `${pages}\n\nAlso close: ${others.join(', ')}`;
}
