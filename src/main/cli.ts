import { Command, CommanderError } from 'commander';
import { CliFailure, EXIT, type ExitCode } from '../adapters/cli/exit-codes.js';
import { registerCommands } from '../adapters/cli/register-commands.js';
import { createMediaApiClient } from '../adapters/cloud-api/media-api-client.js';
import { createTemplateApiClient } from '../adapters/cloud-api/template-api-client.js';
import { ErrorsFile } from '../adapters/import/errors-file.js';
import { contactFileFormat, openContactSource } from '../adapters/import/open-contact-source.js';
import { parseWebhook } from '../adapters/webhook/parse-webhook.js';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { isDataError, StoreError } from '../ports/store.js';
import { CLI_COMMANDS, CLI_GROUPS } from './cli-commands.js';
import type { MainDeps } from './commands/main-deps.js';
import { withStore } from './with-store.js';
import { senderAccountsOf } from './sender-accounts.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** Builds the `pacer` command line. Output goes through `out`; the caller owns the process. */
export function buildProgram(out: (text: string) => void, env: Environment = process.env): Command {
  const program = new Command('pacer')
    .description('Send WhatsApp Business messages that respect per-user caps, windows and consent.')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: out })
    .showHelpAfterError('(run pacer --help for usage)');
  registerCommands(program, CLI_GROUPS, CLI_COMMANDS, cliDeps(out, env));
  return program;
}

/**
 * The commands' dependencies. The environment is read through `loadConfig` once, when a command
 * first needs it, so `pacer explain` and `--help` work whatever it holds.
 */
function cliDeps(out: (text: string) => void, env: Environment): MainDeps {
  let loaded: Config | undefined;
  const config = (): Config => (loaded ??= loadConfig(env));
  return {
    out,
    config,
    now: () => Date.now(),
    random: Math.random,
    parseWebhook,
    withStore: (work, migrate) => withStore(config(), work, migrate),
    policy: () => config().policy,
    mode: () => config().mode,
    phoneNumberId: () => config().whatsapp.phoneNumberId,
    templateAccount: () => {
      const w = config().whatsapp;
      if (w.businessAccountId === null) {
        throw new CliFailure(
          'WHATSAPP_BUSINESS_ACCOUNT_ID is not set: templates are listed from the WhatsApp Business Account (its id, digits).',
          EXIT.usage,
        );
      }
      if (w.accessToken === null)
        throw new CliFailure('WHATSAPP_ACCESS_TOKEN is not set: reading templates needs the system-user token.', EXIT.usage);
      return {
        wabaId: w.businessAccountId,
        api: createTemplateApiClient({ baseUrl: w.apiBaseUrl, apiVersion: w.apiVersion, accessToken: w.accessToken }),
      };
    },
    mediaAccount: () => {
      const w = config().whatsapp;
      if (w.phoneNumberId === null)
        throw new CliFailure('WHATSAPP_PHONE_NUMBER_ID is not set: media are uploaded to the number that sends them.', EXIT.usage);
      if (w.accessToken === null)
        throw new CliFailure('WHATSAPP_ACCESS_TOKEN is not set: uploading media needs the system-user token.', EXIT.usage);
      return {
        phoneNumberId: w.phoneNumberId,
        api: createMediaApiClient({ baseUrl: w.apiBaseUrl, apiVersion: w.apiVersion, accessToken: w.accessToken }),
      };
    },
    senderAccounts: () => {
      const accounts = senderAccountsOf(config());
      if (accounts.length === 0)
        throw new CliFailure(
          'No WhatsApp Business Account is configured: set PACER_ACCOUNTS_FILE, or WHATSAPP_ACCESS_TOKEN with WHATSAPP_BUSINESS_ACCOUNT_ID (or WHATSAPP_PHONE_NUMBER_ID).',
          EXIT.usage,
        );
      return accounts;
    },
    contactFiles: { formatOf: contactFileFormat, open: openContactSource, openErrorsFile: (file, format) => ErrorsFile.open(file, format) },
    terminal: process.stderr.isTTY ? { write: (t) => void process.stderr.write(t), now: () => Date.now() } : null,
  };
}

/** Runs the CLI and returns the exit code: 0 ok, 1 failure, 2 usage. */
export async function runCli(
  argv: readonly string[],
  out: (text: string) => void = (t) => process.stdout.write(`${t}\n`),
  err: (text: string) => void = (t) => process.stderr.write(`${t}\n`),
  env: Environment = process.env,
): Promise<ExitCode> {
  try {
    await buildProgram(out, env).parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    return exitCodeOf(error, err);
  }
}

/** A failure the user can act on is printed without a stack trace; anything else is unexpected. */
function exitCodeOf(error: unknown, err: (text: string) => void): ExitCode {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliFailure) {
    err(`pacer: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof StoreError) {
    // Only a database that cannot be reached or written is a matter of DATABASE_URL; refused data is not.
    const where = isDataError(error) ? '' : ' Check DATABASE_URL or PACER_DATA_DIR.';
    err(`pacer: the database refused: ${error.message}.${where}`);
    return EXIT.failure;
  }
  if (error instanceof ConfigError) {
    err(`pacer: ${error.message}`);
    return EXIT.usage;
  }
  err(`pacer: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.failure;
}
