import { isCategory } from '../../../core/category.js';
import { syncTemplates, type TemplateSyncReport } from '../../../app/sync-templates.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export const templateSyncCommand: CliCommand = {
  path: ['template', 'sync'],
  define: (c) =>
    c
      .description("Fetch every template of the WhatsApp Business Account with Meta's category, status and quality")
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now, templateAccount }) =>
    async (opts: JsonOption) => {
      const { wabaId, api } = templateAccount();
      try {
        await withStore(async (store) => {
          const result = await syncTemplates({ store, api, now }, wabaId);
          if (!result.ok) throw new CliFailure(`template sync failed, nothing changed: ${result.reason}`, EXIT.failure);
          out(opts.json ? JSON.stringify(result.report) : syncText(result.report));
        });
      } finally {
        await api.close();
      }
    },
};

function syncText(r: TemplateSyncReport): string {
  const lines = [
    `Templates synced from ${r.pages} page(s): ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged, ${r.removed} removed (marked deleted).`,
  ];
  if (r.offlineOnly > 0) lines.push(`${r.offlineOnly} template(s) registered offline are not on the account; left as they are.`);
  for (const t of r.refused) {
    lines.push(`Refused ${t.name ?? '(no name)'} (${t.language ?? '?'}${t.id === null ? '' : `, id ${t.id}`}): ${t.reason}`);
  }
  return lines.join('\n');
}

export const templateAddCommand: CliCommand = {
  path: ['template', 'add'],
  define: (c) =>
    c
      .description('Register a template by hand, for offline use; pacer template sync reads them from Meta instead')
      .argument('<name>', 'template name as in WhatsApp Manager')
      .option('--language <code>', 'language code', 'en_US')
      .requiredOption('--category <category>', 'marketing, utility or authentication')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (name: string, opts: { language: string; category: string } & JsonOption) => {
      const category = parseCategory(opts.category);
      await withStore(async (store) => {
        const existing = await store.getTemplate(name, opts.language);
        // The category decides consent and pricing: only Meta changes it (a sync, or its webhook).
        if (existing !== null && existing.category !== category) {
          throw new CliFailure(
            `template ${name} (${opts.language}) is ${existing.category}; it cannot be registered as ${category}. Only Meta changes a template's category: run pacer template sync.`,
            EXIT.usage,
          );
        }
        const [id] = await store.upsertTemplates(
          [
            existing ?? {
              name,
              language: opts.language,
              category,
              status: 'approved',
              quality: null,
              pausedUntil: null,
            },
          ],
          now(),
        );
        out(
          opts.json
            ? JSON.stringify({ id, name, language: opts.language, category })
            : `Template #${id} ${name} (${opts.language}, ${category}) registered for offline use; pacer template sync (Meta) remains the source of truth, and its status and quality follow Meta's webhooks.`,
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
