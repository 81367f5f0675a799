import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { CliFailure, EXIT } from '../../adapters/cli/exit-codes.js';
import { serve } from '../serve.js';
import type { MainDeps } from './main-deps.js';

export const serveCommand: CliCommand<MainDeps> = {
  path: ['serve'],
  define: (c) =>
    c
      .description('Run Pacer: webhook endpoint, REST API, inbox processing, dispatcher and campaign breakers (applies migrations first)')
      .option('--no-dispatch', 'receive and apply webhooks only; pacer worker processes send'),
  run:
    ({ out, config }) =>
    async (opts: { dispatch: boolean }) => {
      await serve(config(), out, { role: 'serve', dispatch: opts.dispatch });
    },
};

export const workerCommand: CliCommand<MainDeps> = {
  path: ['worker'],
  define: (c) =>
    c.description('Dispatch only (with a health endpoint on 127.0.0.1:PACER_WORKER_PORT); run beside pacer serve --no-dispatch'),
  run:
    ({ out, config }) =>
    async () => {
      const c = config();
      if (!c.whatsapp.accounts.some((a) => a.accessToken !== null && (a.phoneNumberIds !== null || a.businessAccountId !== null))) {
        throw new CliFailure(
          'A worker sends: set WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID (or WHATSAPP_BUSINESS_ACCOUNT_ID), or name accounts in PACER_ACCOUNTS_FILE.',
          EXIT.usage,
        );
      }
      await serve(c, out, { role: 'worker', dispatch: true });
    },
};
