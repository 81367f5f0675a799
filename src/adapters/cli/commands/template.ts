import { isCategory } from '../../../core/category.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export const templateAddCommand: CliCommand = {
  path: ['template', 'add'],
  define: (c) =>
    c
      .description('Register an approved template so campaigns and sends can use it')
      .argument('<name>', 'template name as in WhatsApp Manager')
      .option('--language <code>', 'language code', 'en_US')
      .requiredOption('--category <category>', 'marketing, utility or authentication')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (name: string, opts: { language: string; category: string } & JsonOption) => {
      const category = parseCategory(opts.category);
      await withStore(async (store) => {
        const [id] = await store.upsertTemplates(
          [{ name, language: opts.language, category, status: 'approved', quality: null, pausedUntil: null }],
          now(),
        );
        out(
          opts.json
            ? JSON.stringify({ id, name, language: opts.language, category })
            : `Template #${id} ${name} (${opts.language}, ${category}) registered; its status and quality follow Meta's webhooks.`,
        );
      });
    },
};

export const templateListCommand: CliCommand = {
  path: ['template', 'list'],
  define: (c) => c.description('Templates with their status and quality').option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const list = await store.listTemplates();
        out(
          opts.json
            ? JSON.stringify(list)
            : list
                .map((t) => `#${t.id} ${t.name} (${t.language}) ${t.category} — ${t.status}${t.quality ? `, quality ${t.quality}` : ''}`)
                .join('\n') || 'No templates.',
        );
      });
    },
};

function parseCategory(value: string): 'marketing' | 'utility' | 'authentication' {
  if (!isCategory(value) || value === 'service')
    throw new CliFailure('--category must be marketing, utility or authentication', EXIT.usage);
  return value;
}
