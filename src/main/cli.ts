import { Command, CommanderError } from 'commander';
import { explainCommand } from '../adapters/cli/explain-command.js';
import { CliFailure, EXIT, type ExitCode } from '../adapters/cli/exit-codes.js';
import path from 'node:path';
import { contactExplainCommand } from '../adapters/cli/contact-command.js';
import { openStore } from '../adapters/storage/open-store.js';
import { ConfigError, loadConfig, redactConfig, type Config } from '../config/config.js';
import { StoreError, type Store } from '../ports/store.js';
import { runDemo } from './demo/run-demo.js';

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

  program
    .command('contact')
    .description('Contacts')
    .command('explain')
    .description('Per category: would Pacer send now, and if not, why and until when, with the events behind it')
    .argument('<phone-or-id>', 'a phone number in any common format, a wa_id, or a business-scoped user id')
    .option('--json', 'JSON: per category kind, reason, until')
    .action(async (who: string, opts: { json?: boolean }) => {
      const config = loadConfig(process.env);
      await withStore(config, async (store) => out(await contactExplainCommand(store, who, config.policy, Date.now(), opts.json === true)));
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

async function withStore(config: Config, work: (store: Store) => Promise<void>, migrate = true): Promise<void> {
  const store = openStore({ databaseUrl: config.storage.databaseUrl ?? undefined, dataDir: config.storage.dataDir });
  try {
    if (migrate) await store.migrate();
    await work(store);
  } finally {
    await store.close();
  }
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
