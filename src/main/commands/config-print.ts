import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { redactConfig } from '../../config/config.js';
import type { MainDeps } from './main-deps.js';

export const configPrintCommand: CliCommand<MainDeps> = {
  path: ['config', 'print'],
  define: (c) =>
    c
      .description('Print the effective configuration, every WhatsApp account included, secrets redacted')
      .option('--json', 'JSON output (the default format is JSON too)'),
  run:
    ({ out, config }) =>
    () =>
      out(JSON.stringify(redactConfig(config()), null, 2)),
};
