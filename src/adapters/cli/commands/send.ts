import { NO_DISPATCHER_HERE } from '../../../app/work-signal.js';
import { randomUUID } from 'node:crypto';
import { queueOneOffMessage, REFERENCE_MAX, type OneOffProblem } from '../../../app/queue-one-off-message.js';
import { isCategory, type Category } from '../../../core/category.js';
import type { Policy } from '../../../core/policy.js';
import { iso } from '../../../core/time.js';
import type { Store } from '../../../ports/store.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { mask } from '../../presenters/mask.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { collect, parseParameterFlags } from '../parameter-flags.js';
import type { ParameterMapping } from '../../../core/template-slot-values.js';

interface SendFlags {
  to: string;
  category: string;
  template?: string;
  language: string;
  text?: string;
  key?: string;
  reference?: string;
  param?: string[];
  fallback?: string[];
  from?: string;
}

export const sendCommand: CliCommand = {
  path: ['send'],
  define: (c) =>
    c
      .description('Queue one utility, authentication or service message; it passes the same decision as campaigns')
      .requiredOption('--to <phone>', 'recipient, international format')
      .option('--category <category>', 'utility, authentication, service or marketing', 'utility')
      .option('--template <name>', 'approved template name')
      .option('--language <code>', 'template language', 'en_US')
      .option('--text <body>', 'free-form text (service category, inside the 24 h window only)')
      .option('--param <key=source>', 'a template value: body.1=text:482913, body.1=attribute:first_name (repeat)', collect)
      .option('--fallback <key=text>', 'the text for a --param attribute the contact has no value for (repeat)', collect)
      .option('--key <key>', 'idempotency key: the same key never queues twice')
      .option('--reference <text>', `your own reference for the message, e.g. an order id (at most ${REFERENCE_MAX} characters)`)
      .option(
        '--from <phone-number-id>',
        'the number it goes from (default: the one the contact last wrote to, else WHATSAPP_PHONE_NUMBER_ID)',
      )
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, phoneNumberId, policy, now }) =>
    async (opts: SendFlags & JsonOption) => {
      if (!isCategory(opts.category)) throw new CliFailure('--category must be marketing, utility, authentication or service', EXIT.usage);
      const from = opts.from ?? phoneNumberId();
      if (from === null)
        throw new CliFailure('Name the number it goes from: --from <phone-number-id>, or WHATSAPP_PHONE_NUMBER_ID.', EXIT.usage);
      if (!/^\d{5,20}$/.test(from)) throw new CliFailure(`--from ${from}: a phone number id is Meta's digits`, EXIT.usage);
      if (opts.reference !== undefined && (opts.reference.trim() === '' || opts.reference.length > REFERENCE_MAX))
        throw new CliFailure(`--reference must be 1 to ${REFERENCE_MAX} characters`, EXIT.usage);
      const send = {
        ...opts,
        category: opts.category,
        phoneNumberId: from,
        number: opts.from === undefined ? ('default' as const) : ('named' as const),
        parameters: parseParameterFlags(opts.param, opts.fallback),
      };
      await withStore(async (store) => out(await queueOne(store, send, policy(), now(), opts.json === true)));
    },
};

interface SendOptions {
  to: string;
  category: Category;
  template?: string;
  language?: string;
  text?: string;
  key?: string;
  reference?: string;
  phoneNumberId: string;
  number: 'named' | 'default';
  parameters: ParameterMapping;
}

const PROBLEMS: Record<Exclude<OneOffProblem, 'invalid_phone'>, string> = {
  template_or_text: 'Give either --template NAME (with --language) or --text "...".',
  text_needs_service: 'Free-form --text is a service message: use --category service (it goes only inside the 24 h window).',
  template_not_service: 'Templates are marketing, utility or authentication: pick one of those with --category.',
};

/**
 * Queues one message in the outbox, where the running server's dispatcher sends it through the same
 * decision as campaigns. Prints what `decide` says about it right now.
 */
async function queueOne(store: Store, o: SendOptions, policy: Policy, now: number, json: boolean): Promise<string> {
  const key = o.key ?? `cli-${randomUUID()}`;
  const r = await queueOneOffMessage(
    store,
    {
      to: o.to,
      category: o.category,
      idempotencyKey: key,
      ...(o.reference !== undefined ? { reference: o.reference } : {}),
      phoneNumberId: o.phoneNumberId,
      number: o.number,
      ...(o.template !== undefined ? { template: { name: o.template, language: o.language ?? 'en_US', parameters: o.parameters } } : {}),
      ...(o.text !== undefined ? { text: o.text } : {}),
    },
    policy,
    now,
    NO_DISPATCHER_HERE, // the server's dispatcher hears of it through the store
  );
  if (!r.ok) {
    if (r.problem === 'invalid_phone')
      throw new CliFailure(`--to ${mask(o.to)} is not a valid phone number in international format (+ and country code).`, EXIT.usage);
    if (r.problem === 'parameters') {
      const lines = r.issues.map((i) => `  ${i.key}: ${i.message}`).join('\n');
      throw new CliFailure(`The template's values do not fit it; nothing was queued:\n${lines}`, EXIT.usage);
    }
    throw new CliFailure(PROBLEMS[r.problem], EXIT.usage);
  }
  const { decision } = r;
  const until = 'until' in decision && decision.until !== null ? iso(decision.until) : null;
  const result = {
    id: r.messageId,
    queued: r.queued,
    idempotencyKey: key,
    reference: r.reference,
    to: mask(r.phoneE164),
    category: o.category,
    decision: { kind: decision.kind, reason: decision.reason, until, explanation: decision.explanation },
  };
  if (json) return JSON.stringify(result, null, 2);
  const ref = r.reference === null ? '' : `, reference ${r.reference}`;
  const head = r.queued
    ? `Queued ${o.category} message #${r.messageId} to ${result.to} (key ${key}${ref}).`
    : `Already queued under key ${key} as message #${r.messageId}${ref}; nothing added.`;
  return `${head}\nRight now Pacer ${decision.kind === 'send' ? 'would send it' : `would ${decision.kind} it${until ? ` until ${until}` : ''}`}: ${decision.explanation}\nThe running server (pacer serve) dispatches it.`;
}
