import type { CliCommand, JsonOption } from '../cli-command.js';
import { contactExplainText } from '../contact-command.js';
import { contactShowText } from '../contact-show.js';

const WHO = ['<phone-or-id>', 'a phone number in any common format, a wa_id, or a business-scoped user id'] as const;

export const contactShowCommand: CliCommand = {
  path: ['contact', 'show'],
  define: (c) =>
    c
      .description('A contact: consent per category with its source, and what happened lately (masked number)')
      .argument(...WHO)
      .option('--json', 'JSON: contact, consent, recent'),
  run:
    ({ out, withStore }) =>
    async (who: string, opts: JsonOption) => {
      await withStore(async (store) => out(await contactShowText(store, who, opts.json === true)));
    },
};

export const contactExplainCommand: CliCommand = {
  path: ['contact', 'explain'],
  define: (c) =>
    c
      .description('Per category: would Pacer send now, and if not, why and until when, with the events behind it')
      .argument(...WHO)
      .option('--json', 'JSON: per category kind, reason, until'),
  run:
    ({ out, withStore, policy, now }) =>
    async (who: string, opts: JsonOption) => {
      await withStore(async (store) => out(await contactExplainText(store, who, policy(), now(), opts.json === true)));
    },
};
