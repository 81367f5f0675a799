import type { Command } from 'commander';
import { actionCommand, createCampaignCommand, parseCategory, parseId, parseRecipientsQuery, recipientsPage, startCampaignCommand, statusText, type CreateOptions } from '../adapters/cli/campaign-command.js';
import { CliFailure, EXIT } from '../adapters/cli/exit-codes.js';
import { previewSegment } from '../app/segment-preview.js';
import { parseSegment } from '../app/segment-schema.js';
import { loadConfig } from '../config/config.js';
import { withStore } from './with-store.js';

/** `pacer template …`, `pacer campaign …` and `pacer segment preview`. */
export function registerCampaignCommands(program: Command, out: (text: string) => void): void {
  const template = program.command('template').description('Message templates');
  template
    .command('add')
    .description('Register an approved template so campaigns and sends can use it')
    .argument('<name>', 'template name as in WhatsApp Manager')
    .option('--language <code>', 'language code', 'en_US')
    .requiredOption('--category <category>', 'marketing, utility or authentication')
    .option('--json', 'JSON output')
    .action(async (name: string, opts: { language: string; category: string; json?: boolean }) => {
      const category = parseCategory(opts.category);
      await withStore(loadConfig(process.env), async (store) => {
        const [id] = await store.upsertTemplates([{ name, language: opts.language, category, status: 'approved', quality: null, pausedUntil: null }], Date.now());
        out(opts.json ? JSON.stringify({ id, name, language: opts.language, category }) : `Template #${id} ${name} (${opts.language}, ${category}) registered; its status and quality follow Meta's webhooks.`);
      });
    });
  template
    .command('list')
    .description('Templates with their status and quality')
    .option('--json', 'JSON output')
    .action(async (opts: { json?: boolean }) => {
      await withStore(loadConfig(process.env), async (store) => {
        const list = await store.listTemplates();
        out(opts.json ? JSON.stringify(list) : list.map((t) => `#${t.id} ${t.name} (${t.language}) ${t.category} — ${t.status}${t.quality ? `, quality ${t.quality}` : ''}`).join('\n') || 'No templates.');
      });
    });

  const campaign = program.command('campaign').description('Campaigns');
  campaign
    .command('create')
    .description('Create a campaign (draft) from a registered template and a segment')
    .requiredOption('--name <name>', 'campaign name')
    .requiredOption('--template <name>', 'registered template')
    .option('--language <code>', 'template language', 'en_US')
    .option('--segment <json>', 'segment, e.g. {"tagsAll":["vip"],"exclude":["stopped","unreachable"]}')
    .option('--at <iso>', 'start sending at this time (default: when started)')
    .option('--ends <iso>', 'end the campaign at this time: rows still held or not yet due are skipped')
    .option('--preset <name>', '131049 retry schedule: meta, 12h, 24h, 48h', 'meta')
    .option('--frequency-cap <cap>', "this campaign's own frequency cap, e.g. 1/7d, or off (default: PACER_FREQUENCY_CAP)")
    .option('--json', 'JSON output')
    .action(async (opts: CreateOptions & { json?: boolean }) => {
      const config = loadConfig(process.env);
      if (config.whatsapp.phoneNumberId === null) throw new CliFailure('Set WHATSAPP_PHONE_NUMBER_ID: the number campaigns send from.', EXIT.usage);
      const phoneNumberId = config.whatsapp.phoneNumberId;
      await withStore(config, async (store) => {
        const c = await createCampaignCommand(store, opts, { phoneNumberId }, Date.now());
        out(opts.json ? JSON.stringify(c) : `Campaign #${c.id} created (draft). Start it with: pacer campaign start ${c.id}`);
      });
    });
  campaign
    .command('start')
    .description('Expand the segment into the outbox and start sending (starting twice adds nothing)')
    .argument('<id>')
    .option('--json', 'JSON output')
    .action(async (id: string, opts: { json?: boolean }) => {
      await withStore(loadConfig(process.env), async (store) => {
        const r = JSON.parse(await startCampaignCommand(store, parseId(id), Date.now())) as { id: number; scanned: number; matched: number; inserted: number };
        out(opts.json ? JSON.stringify(r) : `Campaign #${r.id} running: ${r.matched} of ${r.scanned} contacts match, ${r.inserted} new outbox row(s).`);
      });
    });
  for (const action of ['pause', 'resume', 'cancel'] as const) {
    campaign
      .command(action)
      .description(`${action[0]?.toUpperCase()}${action.slice(1)} a campaign`)
      .argument('<id>')
      .option('--json', 'JSON output')
      .action(async (id: string, opts: { json?: boolean }) => {
        const config = loadConfig(process.env);
        await withStore(config, async (store) => {
          const c = await actionCommand(store, parseId(id), action, Date.now());
          const s = await statusText(store, c, Date.now(), config.policy);
          out(opts.json ? JSON.stringify(s.json) : s.text);
        });
      });
  }
  campaign
    .command('status')
    .description('A campaign with its counters and pause reason')
    .argument('<id>')
    .option('--json', 'JSON output')
    .action(async (id: string, opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => {
        const c = await store.getCampaign(parseId(id));
        if (c === null) throw new CliFailure(`campaign ${id} does not exist`);
        const s = await statusText(store, c, Date.now(), config.policy);
        out(opts.json ? JSON.stringify(s.json) : s.text);
      });
    });
  campaign
    .command('recipients')
    .description('Recipients still waiting: pending retries (with the next attempt) or held for a window')
    .argument('<id>')
    .requiredOption('--waiting <kind>', 'retry | held')
    .option('--after <rowId>', 'page on from this outbox row id', '0')
    .option('--limit <n>', 'rows per page (1-500)', '50')
    .option('--json', 'JSON output')
    .action(async (id: string, opts: { waiting: string; after: string; limit: string; json?: boolean }) => {
      const query = parseRecipientsQuery(id, opts);
      await withStore(loadConfig(process.env), async (store) => {
        const page = await recipientsPage(store, query);
        out(opts.json ? JSON.stringify(page.json) : page.text);
      });
    });
  campaign
    .command('list')
    .description('All campaigns')
    .option('--json', 'JSON output')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => {
        const all = await store.listCampaigns({});
        const rows = await Promise.all(all.map((c) => statusText(store, c, Date.now(), config.policy)));
        out(opts.json ? JSON.stringify(rows.map((r) => r.json)) : rows.map((r) => r.text).join('\n') || 'No campaigns.');
      });
    });

  program
    .command('segment')
    .description('Segments')
    .command('preview')
    .description('How many contacts a segment selects now, and how many of them cannot get marketing now')
    .requiredOption('--segment <json>', 'segment JSON')
    .option('--json', 'JSON output')
    .action(async (opts: { segment: string; json?: boolean }) => {
      let segment;
      try {
        segment = parseSegment(JSON.parse(opts.segment), '--segment');
      } catch (error) {
        throw new CliFailure(error instanceof SyntaxError ? '--segment must be JSON' : (error as Error).message, EXIT.usage);
      }
      await withStore(loadConfig(process.env), async (store) => {
        const p = await previewSegment(store, segment, Date.now());
        out(opts.json ? JSON.stringify(p) : `${p.matched} of ${p.contacts} contacts match; now cooling off ${p.matchedNow.cooling_off}, held ${p.matchedNow.held}, stopped ${p.matchedNow.stopped}, unreachable ${p.matchedNow.unreachable}.`);
      });
    });

}
