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
