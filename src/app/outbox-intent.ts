import { z } from 'zod';
import type { SendEndpoint, SendRequest, Recipient } from '../ports/cloud-api.js';
import type { JsonObject } from '../ports/store.js';

/** What an outbox row asks to send, as stored in its `intent` column. */
export const outboxIntentSchema = z
  .object({
    phoneNumberId: z.string().min(1),
    template: z
      .object({
        name: z.string().min(1),
        language: z.string().min(1),
        components: z.array(z.looseObject({ type: z.string() })).optional(),
        /** The recipient's template values, frozen when it was queued; the components are built from them at send time. */
        values: z
          .record(
            z.string(),
            z.union([
              z.string(),
              z.object({ link: z.string(), filename: z.string().optional() }),
              z.object({ mediaId: z.string(), filename: z.string().optional() }),
            ]),
          )
          .optional(),
      })
      .optional(),
    text: z.string().min(1).max(4096).optional(),
    /** Set when the values were frozen: why this recipient's message cannot be sent. */
    parameterProblem: z.object({ reason: z.enum(['missing_parameter', 'invalid_parameter']), detail: z.string() }).optional(),
  })
  .refine((i) => (i.template === undefined) !== (i.text === undefined), 'exactly one of template or text');

export type OutboxIntent = z.infer<typeof outboxIntentSchema>;

type FrozenValue = NonNullable<NonNullable<OutboxIntent['template']>['values']>[string];

/**
 * A template intent's JSON text for many rows of one number and template, each with its own values
 * in the order of `keys` (undefined: none for that key): the same text `JSON.stringify` writes for
 * `{ phoneNumberId, template: { name, language, values } }`, put together without an object per row.
 */
export function templateIntentWriter(
  base: { phoneNumberId: string; template: { name: string; language: string } },
  keys: readonly string[],
): (values: ReadonlyArray<FrozenValue | undefined>) => string {
  const head = `{"phoneNumberId":${JSON.stringify(base.phoneNumberId)},"template":{"name":${JSON.stringify(base.template.name)},"language":${JSON.stringify(base.template.language)},"values":{`;
  const names = keys.map((key) => `${JSON.stringify(key)}:`);
  return (values) => {
    let text = head;
    let first = true;
    for (let i = 0; i < names.length; i += 1) {
      const value = values[i];
      if (value === undefined) continue;
      text += `${first ? '' : ','}${names[i] as string}${JSON.stringify(value)}`;
      first = false;
    }
    return `${text}}}}`;
  };
}

export function parseOutboxIntent(json: JsonObject, rowId: number): OutboxIntent {
  const parsed = outboxIntentSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `outbox row ${rowId}: bad intent: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** Our message id, echoed by Meta in every status webhook as `biz_opaque_callback_data`. */
export function callbackDataFor(outboxId: number): string {
  return `pacer:${outboxId}`;
}

export function outboxIdFromCallbackData(data: string | null | undefined): number | null {
  const m = /^pacer:(\d{1,15})$/.exec(data ?? '');
  return m?.[1] === undefined ? null : Number(m[1]);
}

export function buildSendRequest(outboxId: number, intent: OutboxIntent, to: Recipient, endpoint: SendEndpoint): SendRequest {
  const messageId = callbackDataFor(outboxId);
  if (intent.text !== undefined) return { type: 'text', to, messageId, body: intent.text };
  const t = intent.template;
  if (t === undefined) throw new Error(`outbox row ${outboxId}: intent has neither template nor text`);
  return {
    type: 'template',
    to,
    messageId,
    endpoint,
    template: { name: t.name, language: t.language, ...(t.components ? { components: t.components } : {}) },
  };
}
