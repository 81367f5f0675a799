import type { CliCommand } from '../adapters/cli/cli-command.js';
import { campaignCreateCommand } from '../adapters/cli/commands/campaign-create.js';
import { campaignPreviewCommand } from '../adapters/cli/commands/campaign-preview.js';
import { campaignRecipientsCommand } from '../adapters/cli/commands/campaign-recipients.js';
import { campaignActionCommands, campaignStartCommand } from '../adapters/cli/commands/campaign-run.js';
import { campaignListCommand, campaignStatusCommand } from '../adapters/cli/commands/campaign-status.js';
import { contactExplainCommand, contactShowCommand } from '../adapters/cli/commands/contact.js';
import { dbMigrateCommand } from '../adapters/cli/commands/db-migrate.js';
import { diagnoseCommand } from '../adapters/cli/commands/diagnose.js';
import { explainCommand } from '../adapters/cli/commands/explain.js';
import { importContactsCommand } from '../adapters/cli/commands/import-contacts.js';
import { mediaUploadCommand } from '../adapters/cli/commands/media.js';
import { segmentPreviewCommand } from '../adapters/cli/commands/segment-preview.js';
import { sendCommand } from '../adapters/cli/commands/send.js';
import { senderListCommand, senderShowCommand, senderSyncCommand } from '../adapters/cli/commands/sender.js';
import { templateAddCommand, templateListCommand, templateSyncCommand, templateTtlCommand } from '../adapters/cli/commands/template.js';
import { tokenCreateCommand, tokenListCommand, tokenRevokeCommand } from '../adapters/cli/commands/token.js';
import { webhooksQuarantineCommand, webhooksReplayCommand } from '../adapters/cli/commands/webhooks.js';
import {
  eventsAttemptsCommand,
  eventsPruneCommand,
  eventsReplayCommand,
  eventsShowCommand,
} from '../adapters/cli/commands/events-deliveries.js';
import {
  eventsDisableCommand,
  eventsEnableCommand,
  eventsSubscribeCommand,
  eventsSubscriptionsCommand,
  eventsUnsubscribeCommand,
} from '../adapters/cli/commands/events-subscriptions.js';
import { configPrintCommand } from './commands/config-print.js';
import { demoCommand } from './commands/demo.js';
import { labCommand } from './commands/lab.js';
import type { MainDeps } from './commands/main-deps.js';
import { serveCommand, workerCommand } from './commands/serve.js';
import { simulatorCommand } from './commands/simulator.js';

/** The command groups of `pacer`, with the description `pacer --help` shows for each. */
export const CLI_GROUPS: Readonly<Record<string, string>> = {
  config: 'Configuration',
  contact: 'Contacts',
  db: 'Database',
  webhooks: 'The webhook inbox',
  events: 'Events out: subscriptions (signed webhooks to a CRM), their deliveries and replays',
  template: 'Message templates',
  media: 'Media for template headers',
  sender: 'Sender numbers and their health',
  campaign: 'Campaigns',
  segment: 'Segments',
  token: 'REST API tokens (only their SHA-256 is stored)',
  import: 'Import data',
};

/** Every command of `pacer`, in the order `pacer --help` lists them. */
export const CLI_COMMANDS: readonly CliCommand<MainDeps>[] = [
  explainCommand,
  configPrintCommand,
  contactShowCommand,
  contactExplainCommand,
  diagnoseCommand,
  dbMigrateCommand,
  webhooksQuarantineCommand,
  webhooksReplayCommand,
  templateAddCommand,
  templateListCommand,
  templateSyncCommand,
  templateTtlCommand,
  mediaUploadCommand,
  senderSyncCommand,
  senderListCommand,
  senderShowCommand,
  campaignCreateCommand,
  campaignStartCommand,
  ...campaignActionCommands,
  campaignStatusCommand,
  campaignRecipientsCommand,
  campaignPreviewCommand,
  campaignListCommand,
  segmentPreviewCommand,
  tokenCreateCommand,
  tokenListCommand,
  tokenRevokeCommand,
  eventsSubscribeCommand,
  eventsSubscriptionsCommand,
  eventsShowCommand,
  eventsDisableCommand,
  eventsEnableCommand,
  eventsUnsubscribeCommand,
  eventsReplayCommand,
  eventsAttemptsCommand,
  eventsPruneCommand,
  sendCommand,
  serveCommand,
  workerCommand,
  simulatorCommand,
  importContactsCommand,
  demoCommand,
  labCommand,
];
