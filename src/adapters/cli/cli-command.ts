import type { Command } from 'commander';
import type { Policy } from '../../core/policy.js';
import type { Millis } from '../../core/time.js';
import type { SenderAccount } from '../../app/sync-senders.js';
import type { MediaApi, TemplateApi } from '../../ports/cloud-api.js';
import type { Store } from '../../ports/store.js';
import type { ParseWebhook } from '../../ports/webhook-items.js';
import type { ContactFiles } from './contact-files.js';

/** What the commands use. `src/main` builds it; the configuration behind it is read on first use. */
export interface CliDeps {
  out: (text: string) => void;
  now: () => Millis;
  random: () => number;
  /** Opens the configured store for one command (migrating it first unless told not to) and closes it. */
  withStore: (work: (store: Store) => Promise<void>, migrate?: boolean) => Promise<void>;
  policy: () => Policy;
  /** Reads a stored webhook payload into items (the webhook adapter's parser, wired in `src/main`). */
  parseWebhook: ParseWebhook;
  /** PACER_MODE: production refuses plain-http event subscriber URLs except to loopback. */
  mode: () => 'production' | 'development';
  /** The business number to send from (WHATSAPP_PHONE_NUMBER_ID), or null when it is not set. */
  phoneNumberId: () => string | null;
  /**
   * The WhatsApp Business Account (WHATSAPP_BUSINESS_ACCOUNT_ID) and a template API client for it;
   * throws a usage failure naming what is not configured. The caller closes the client.
   */
  templateAccount: () => { wabaId: string; api: TemplateApi };
  /** The sending number and a media client for it; throws a usage failure naming what is not configured. The caller closes it. */
  mediaAccount: () => { phoneNumberId: string; api: MediaApi };
  /**
   * Every configured WhatsApp Business Account, each with a phone-number client holding its own token;
   * throws a usage failure when none is configured. The caller closes the clients.
   */
  senderAccounts: () => SenderAccount[];
  contactFiles: ContactFiles;
  /** Where a progress bar may be drawn (standard error, when it is a terminal), or null. */
  terminal: { write: (text: string) => void; now: () => number } | null;
}

/** One command of `pacer`: where it sits, how it is declared, and what it does. */
export interface CliCommand<D = CliDeps> {
  /** Its name, after its group's when it has one: `['explain']`, `['campaign', 'create']`. */
  path: readonly [string] | readonly [string, string];
  /** Declares the description, arguments and options on the command commander made for it. */
  define: (command: Command) => Command;
  /** The action: called with commander's arguments, the options last. */
  run: (deps: D) => (...args: never[]) => void | Promise<void>;
}

/** Every command takes `--json`. */
export interface JsonOption {
  json?: boolean;
}
