import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { contactExplainCommand } from '../adapters/cli/contact-command.js';
import { contactShowCommand } from '../adapters/cli/contact-show.js';
import { diagnoseCommand, renderDiagnosis, type DiagnoseOptions } from '../adapters/cli/diagnose-command.js';
import { CliFailure, EXIT, type ExitCode } from '../adapters/cli/exit-codes.js';
import { diagnosisJson } from '../adapters/presenters/diagnosis-json.js';
import { explainCommand } from '../adapters/cli/explain-command.js';
import { sendCommand } from '../adapters/cli/send-command.js';
import { listQuarantine, replayQuarantine } from '../adapters/cli/webhooks-command.js';
import { planContactImport, runContactImport, type ImportContactsCliOptions } from '../adapters/import/import-contacts-command.js';
import { startSimulator } from '../adapters/simulator/index.js';
import { parseWebhook } from '../adapters/webhook/parse-webhook.js';
import { createApiToken } from '../app/api-tokens.js';
import { ConfigError, loadConfig, redactConfig } from '../config/config.js';
import { isCategory, type Category } from '../core/category.js';
import { StoreError } from '../ports/store.js';
import { registerCampaignCommands } from './cli-campaigns.js';
import { runDemo } from './demo/run-demo.js';
import { serve } from './serve.js';
import { withStore } from './with-store.js';

/** Builds the `pacer` command line. Output goes through `out`; the caller owns the process. */
export function buildProgram(out: (text: string) => void): Command {
  const program = new Command('pacer')
    .description('Send WhatsApp Business messages that respect per-user caps, windows and consent.')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: out })
    .showHelpAfterError('(run pacer --help for usage)');

  program
    .command('explain')
    .description('Explain a Meta error code or pasted error text: meaning, cause, whether a retry helps, what to do')
    .argument('<code-or-text...>', 'a code such as 131049, or the message Meta returned')
    .option('--json', 'print the catalogue entry as JSON')
    .action((words: string[], opts: { json?: boolean }) => out(explainCommand(words.join(' '), opts.json === true)));

  const config = program.command('config').description('Configuration');
  config
    .command('print')
    .description('Print the effective configuration, secrets redacted')
    .option('--json', 'JSON output (the default format is JSON too)')
    .action(() => out(JSON.stringify(redactConfig(loadConfig(process.env)), null, 2)));

  const contact = program.command('contact').description('Contacts');
  contact
    .command('show')
    .description('A contact: consent per category with its source, and what happened lately (masked number)')
    .argument('<phone-or-id>', 'a phone number in any common format, a wa_id, or a business-scoped user id')
    .option('--json', 'JSON: contact, consent, recent')
    .action(async (who: string, opts: { json?: boolean }) => {
      await withStore(loadConfig(process.env), async (store) => out(await contactShowCommand(store, who, opts.json === true)));
    });
  contact
    .command('explain')
    .description('Per category: would Pacer send now, and if not, why and until when, with the events behind it')
    .argument('<phone-or-id>', 'a phone number in any common format, a wa_id, or a business-scoped user id')
    .option('--json', 'JSON: per category kind, reason, until')
    .action(async (who: string, opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => out(await contactExplainCommand(store, who, config.policy, Date.now(), opts.json === true)));
    });

  program
    .command('diagnose')
    .description('Where failures such as 131049 come from: recipients, one campaign, or the account, with the evidence and what to do')
    .option('--campaign <id>', 'diagnose one campaign (default: all sends in the window)')
    .option('--since <when>', 'start of the window: 7d, 36h, 90m, 2w or an ISO time (default: the campaign start, or 7d)')
    .option('--json', 'JSON: verdict, subject, summary, action, evidence and the facts')
    .action(async (opts: DiagnoseOptions & { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => {
        const report = await diagnoseCommand(store, config.policy, opts, Date.now());
        out(opts.json ? JSON.stringify(diagnosisJson(report)) : renderDiagnosis(report));
      });
    });

  program
    .command('db')
    .description('Database')
    .command('migrate')
    .description('Apply pending migrations (safe when several processes start at once)')
    .option('--json', 'JSON output')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => {
        const r = await store.migrate();
        out(opts.json ? JSON.stringify(r) : r.applied.length === 0 ? `Schema is current (version ${r.current}).` : `Applied migrations ${r.applied.join(', ')}; schema at version ${r.current}.`);
      }, false);
    });

  const webhooks = program.command('webhooks').description('The webhook inbox');
  webhooks
    .command('quarantine')
    .description('List webhook payloads that could not be applied, with the reason')
    .option('--limit <n>', 'how many to list', '100')
    .option('--json', 'JSON output')
    .action(async (opts: { limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new CliFailure('--limit must be a positive whole number', EXIT.usage);
      await withStore(loadConfig(process.env), async (store) => out(await listQuarantine(store, limit, opts.json === true)));
    });
  webhooks
    .command('replay')
    .description('Send quarantined payloads back through the processor (after a fix)')
    .option('--id <id...>', 'quarantined payload ids')
    .option('--all', 'every quarantined payload')
    .option('--json', 'JSON output')
    .action(async (opts: { id?: string[]; all?: boolean; json?: boolean }) => {
      const ids = opts.all ? null : (opts.id ?? []).map(Number);
      if (ids !== null && ids.some((n) => !Number.isInteger(n) || n < 1)) throw new CliFailure('--id takes payload ids as shown by pacer webhooks quarantine', EXIT.usage);
      const config = loadConfig(process.env);
      await withStore(config, async (store) => out(await replayQuarantine(store, ids, config.policy, parseWebhook, opts.json === true)));
    });

  registerCampaignCommands(program, out);

  const token = program.command('token').description('REST API tokens (only their SHA-256 is stored)');
  token
    .command('create')
    .description('Create an API token and print it once: it cannot be shown again')
    .option('--name <name>', 'what the token is for, e.g. ci or dashboard', 'api')
    .option('--json', 'JSON output: id, name, token, createdAt')
    .action(async (opts: { name: string; json?: boolean }) => {
      const name = opts.name.trim();
      if (name === '' || name.length > 100) throw new CliFailure('--name must be 1-100 characters', EXIT.usage);
      await withStore(loadConfig(process.env), async (store) => {
        const t = await createApiToken(store, name, Date.now());
        out(opts.json ? JSON.stringify({ id: t.id, name: t.name, token: t.token, createdAt: new Date(t.createdAt).toISOString() }) : `Token #${t.id} (${t.name}):\n${t.token}\nStore it now: Pacer keeps only its hash and cannot show it again. Send it as Authorization: Bearer <token>.`);
      });
    });
  token
    .command('list')
    .description('List API tokens (names and dates; the tokens themselves are not stored)')
    .option('--json', 'JSON output')
    .action(async (opts: { json?: boolean }) => {
      await withStore(loadConfig(process.env), async (store) => {
        const rows = (await store.listApiTokens()).map((t) => ({ id: t.id, name: t.name, createdAt: new Date(t.createdAt).toISOString(), revokedAt: t.revokedAt === null ? null : new Date(t.revokedAt).toISOString() }));
        out(opts.json ? JSON.stringify(rows, null, 2) : rows.length === 0 ? 'No API tokens.' : rows.map((r) => `#${r.id}  ${r.name}  created ${r.createdAt}${r.revokedAt ? `  revoked ${r.revokedAt}` : ''}`).join('\n'));
      });
    });
  token
    .command('revoke')
    .description('Revoke an API token: requests with it get 401 from then on')
    .argument('<id>', 'the token id shown by pacer token list')
    .option('--json', 'JSON output')
    .action(async (id: string, opts: { json?: boolean }) => {
      const n = Number(id);
      if (!Number.isInteger(n) || n < 1) throw new CliFailure('<id> is the token number shown by pacer token list', EXIT.usage);
      await withStore(loadConfig(process.env), async (store) => {
        if (!(await store.revokeApiToken(n, Date.now()))) throw new CliFailure(`No active API token #${n}.`);
        out(opts.json ? JSON.stringify({ id: n, revoked: true }) : `Revoked API token #${n}.`);
      });
    });

  program
    .command('send')
    .description('Queue one utility, authentication or service message; it passes the same decision as campaigns')
    .requiredOption('--to <phone>', 'recipient, international format')
    .option('--category <category>', 'utility, authentication, service or marketing', 'utility')
    .option('--template <name>', 'approved template name')
    .option('--language <code>', 'template language', 'en_US')
    .option('--text <body>', 'free-form text (service category, inside the 24 h window only)')
    .option('--key <key>', 'idempotency key: the same key never queues twice')
    .option('--json', 'JSON output')
    .action(async (opts: { to: string; category: string; template?: string; language: string; text?: string; key?: string; json?: boolean }) => {
      if (!isCategory(opts.category)) throw new CliFailure('--category must be marketing, utility, authentication or service', EXIT.usage);
      const config = loadConfig(process.env);
      const phoneNumberId = config.whatsapp.phoneNumberId;
      if (phoneNumberId === null) throw new CliFailure('Set WHATSAPP_PHONE_NUMBER_ID: the number to send from.', EXIT.usage);
      await withStore(config, async (store) => out(await sendCommand(store, { ...opts, category: opts.category as Category, phoneNumberId }, config.policy, Date.now(), opts.json === true)));
    });

  program
    .command('serve')
    .description('Run Pacer: webhook endpoint, REST API, inbox processing, dispatcher and campaign breakers (applies migrations first)')
    .option('--no-dispatch', 'receive and apply webhooks only; pacer worker processes send')
    .action(async (opts: { dispatch: boolean }) => {
      await serve(loadConfig(process.env), out, { role: 'serve', dispatch: opts.dispatch });
    });

  program
    .command('worker')
    .description('Dispatch only (with a health endpoint on 127.0.0.1:PACER_WORKER_PORT); run beside pacer serve --no-dispatch')
    .action(async () => {
      const config = loadConfig(process.env);
      if (config.whatsapp.accessToken === null || config.whatsapp.phoneNumberId === null) {
        throw new CliFailure('A worker sends: set WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID.', EXIT.usage);
      }
      await serve(config, out, { role: 'worker', dispatch: true });
    });

  program
    .command('simulator')
    .description('Run the Cloud API simulator on loopback in real time (point WHATSAPP_API_BASE_URL at it)')
    .option('--port <port>', 'port to listen on (0 picks one)', '4010')
    .option('--seed <n>', 'seed for the simulated population', '1')
    .option('--population <n>', 'simulated WhatsApp users', '1000')
    .option('--callback-url <url>', "where to post webhooks, e.g. http://127.0.0.1:3000/webhooks/whatsapp")
    .option('--json', 'print the address and settings as JSON')
    .action(async (opts: { port: string; seed: string; population: string; callbackUrl?: string; json?: boolean }) => {
      const port = Number(opts.port), seed = Number(opts.seed), size = Number(opts.population);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliFailure('--port must be 0-65535', EXIT.usage);
      if (!Number.isInteger(seed) || !Number.isInteger(size) || size < 1) throw new CliFailure('--seed and --population must be whole numbers', EXIT.usage);
      const secret = process.env.WHATSAPP_APP_SECRET?.split(',')[0]?.trim();
      const sim = await startSimulator({
        seed, port, population: { size }, callbackUrl: opts.callbackUrl ?? null,
        ...(secret ? { appSecret: secret } : {}),
        ...(process.env.WHATSAPP_ACCESS_TOKEN ? { accessToken: process.env.WHATSAPP_ACCESS_TOKEN } : {}),
      });
      const info = { url: sim.url, phoneNumberId: sim.config.phoneNumberId, wabaId: sim.config.wabaId, users: sim.users.length, callbackUrl: sim.config.callbackUrl };
      out(opts.json ? JSON.stringify(info) : `Cloud API simulator on ${sim.url} (phone number id ${info.phoneNumberId}, ${info.users} users); webhooks to ${info.callbackUrl ?? 'nowhere'}. Ctrl-C stops it.`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.stop();
    });

  program
    .command('import')
    .description('Import data')
    .command('contacts')
    .description('Import contacts and their consent from CSV (header row) or JSON Lines; streamed, idempotent')
    .argument('<file>', 'a .csv file with a header row naming a phone column, or .jsonl / .ndjson')
    .option('--format <format>', 'csv or jsonl (default: from the file extension)')
    .option('--default-country <XX>', 'country for numbers written without + (ISO code, e.g. GB)')
    .option('--errors <file>', 'write every rejected row to this CSV file (line, field, reason)')
    .option('--json', 'JSON summary: accepted, rejected, created, updated, errors')
    .action(async (file: string, opts: ImportContactsCliOptions) => {
      const plan = planContactImport(file, opts);
      const config = loadConfig(process.env);
      const progress = process.stderr.isTTY ? { write: (t: string) => void process.stderr.write(t), now: () => Date.now() } : null;
      await withStore(config, async (store) => void (await runContactImport(store, plan, { policy: config.policy, now: Date.now(), out, progress })));
    });

  program
    .command('demo')
    .description('Run the demo: Pacer and a naive sender on the same simulated week (see README)')
    .option('--audience <n>', 'contacts in the simulated audience', '50000')
    .option('--out <dir>', 'where the report and the demo database go', 'data/demo')
    .action(async (opts: { audience: string; out: string }) => {
      const audience = Number(opts.audience);
      if (!Number.isInteger(audience) || audience < 100) throw new CliFailure('--audience must be a whole number of at least 100', EXIT.usage);
      await runDemo({ audience, outDir: path.resolve(opts.out), out });
    });

  return program;
}


/** Runs the CLI and returns the exit code: 0 ok, 1 failure, 2 usage. */
export async function runCli(argv: readonly string[], out: (text: string) => void = (t) => process.stdout.write(`${t}\n`), err: (text: string) => void = (t) => process.stderr.write(`${t}\n`)): Promise<ExitCode> {
  try {
    await buildProgram(out).parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliFailure) {
      err(`pacer: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof StoreError) {
      err(`pacer: the database refused: ${error.message}. Check DATABASE_URL or PACER_DATA_DIR.`);
      return EXIT.failure;
    }
    if (error instanceof ConfigError) {
      err(`pacer: ${error.message}`);
      return EXIT.usage;
    }
    err(`pacer: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}
