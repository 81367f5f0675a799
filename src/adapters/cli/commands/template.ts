import { isCategory } from '../../../core/category.js';
import { parseDuration } from '../../../core/duration.js';
import { secondsText } from '../../../core/template-ttl.js';
import { SECOND } from '../../../core/time.js';
import { setTemplateTtl, type TtlEditProblem } from '../../../app/set-template-ttl.js';
import { syncTemplates, type TemplateSyncReport } from '../../../app/sync-templates.js';
import type { Template } from '../../../ports/store.js';
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
                .map(
                  (t) =>
                    `#${t.id} ${t.name} (${t.language}) ${t.category} — ${t.status}${t.quality ? `, quality ${t.quality}` : ''}${t.sendTtlSeconds === null ? '' : `, time-to-live ${secondsText(t.sendTtlSeconds)}`}`,
                )
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

const TTL_EXIT: Record<TtlEditProblem, (typeof EXIT)[keyof typeof EXIT]> = {
  not_found: EXIT.usage,
  not_synced: EXIT.usage,
  not_editable: EXIT.usage,
  out_of_range: EXIT.usage,
  refused: EXIT.failure,
};

/** `pacer template ttl NAME --language xx --ttl 12h`: the template's time-to-live, set at Meta. */
export const templateTtlCommand: CliCommand = {
  path: ['template', 'ttl'],
  define: (c) =>
    c
      .description("Set a template's time-to-live at Meta: how long Meta retries a message it cannot deliver before dropping it")
      .argument('<name>', 'template name')
      .option('--language <code>', 'language code', 'en_US')
      .requiredOption(
        '--ttl <duration>',
        'e.g. 12h: marketing 12h-30d (Marketing Messages API only), utility 30s-12h, authentication 30s-15m; -1 is 30 days',
      )
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now, templateAccount }) =>
    async (name: string, opts: { language: string; ttl: string } & JsonOption) => {
      const seconds = parseTtl(opts.ttl);
      const { api } = templateAccount();
      try {
        await withStore(async (store) => {
          const r = await setTemplateTtl({ store, api, now }, { name, language: opts.language, seconds });
          if (!r.ok) throw new CliFailure(`${r.reason}; nothing changed`, TTL_EXIT[r.problem]);
          out(
            opts.json
              ? JSON.stringify({ ...r.template, previousTtlSeconds: r.previousSeconds, readBack: r.readBack })
              : ttlText(r.template, r.previousSeconds, r.readBack),
          );
        });
      } finally {
        await api.close();
      }
    },
};

/** `12h`, `900s`, or `-1`, in whole seconds; a usage failure otherwise. */
function parseTtl(text: string): number {
  if (text.trim() === '-1') return -1;
  const ms = parseDuration(text);
  if (ms === null || ms % SECOND !== 0 || ms === 0)
    throw new CliFailure(`--ttl must be a duration in whole seconds like 12h, 900s or 7d (or -1 for 30 days), got "${text}"`, EXIT.usage);
  return ms / SECOND;
}

function ttlText(t: Template, previous: number | null, readBack: boolean): string {
  const was = previous === null ? "Meta's default" : secondsText(previous);
  const where =
    t.category === 'marketing'
      ? 'Meta honours it on the Marketing Messages API (PACER_MARKETING_PATH marketing_messages or marketing_messages_after_cap); on /messages marketing is retried for 30 days whatever the template says.'
      : 'Meta honours it on the Cloud API.';
  const ttl = t.sendTtlSeconds === null ? 'not listed by Meta' : secondsText(t.sendTtlSeconds);
  return [
    `Template ${t.name} (${t.language}, ${t.category}): time-to-live ${ttl}, was ${was}. A message Meta cannot deliver within it is dropped instead of arriving late.`,
    where,
    ...(readBack ? [] : ['Meta took the edit but the template could not be read back; run pacer template sync to confirm it.']),
  ].join('\n');
}
