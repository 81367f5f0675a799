import { Command, CommanderError } from 'commander';
import { explainCommand } from '../adapters/cli/explain-command.js';
import { CliFailure, EXIT, type ExitCode } from '../adapters/cli/exit-codes.js';
import { ConfigError, loadConfig, redactConfig } from '../config/config.js';

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
    if (error instanceof ConfigError) {
      err(`pacer: ${error.message}`);
      return EXIT.usage;
    }
    err(`pacer: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}
