import { z } from 'zod';
import { SENDER_HISTORY_DAYS, senderOverview, sendersOverview } from '../../../app/sender-overview.js';
import { senderHistoryJson, senderOverviewJson } from '../../presenters/sender-json.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { route, type AnyRoute } from './route-table.js';
import { isoTime } from './schemas.js';

const STATES = ['ok', 'throttled', 'stopped'] as const;

/** Whether a number sends, shared by a sender and a campaign's sender. */
export const sendingSchema = {
  canSend: z.boolean().describe('false when Pacer stopped the number or Meta reports it other than CONNECTED'),
  sending: z.enum(['sends', 'waits', 'cannot_send']).describe('waits: throttled, it sends again at resumesAt'),
  problems: z.array(z.string()).describe('why it cannot send (or waits); empty when it sends'),
  resumesAt: isoTime.nullable().describe('a throttled number: when it sends again'),
};

export const senderSchema = z.object({
  id: z.number().int().describe("Pacer's id of the number (a campaign's senderId)"),
  phoneNumberId: z.string().describe("Meta's phone number id"),
  displayNumber: z.string(),
  verifiedName: z.string().nullable(),
  businessAccountId: z.string().nullable().describe('the WhatsApp Business Account (WABA) id'),
  portfolioId: z.string().nullable().describe('the business portfolio; null: not known, the number has a limit of its own'),
  metaStatus: z.string().nullable().describe("Meta's status (CONNECTED, FLAGGED, RESTRICTED, BANNED…); null until read"),
  nameStatus: z.string().nullable(),
  state: z.enum(STATES).describe("Pacer's state of the number"),
  stateReason: z.string().nullable(),
  stateUntil: isoTime.nullable(),
  ...sendingSchema,
  qualityRating: z.string().nullable(),
  throughputMps: z.number().describe('messages a second'),
  throughputLevel: z.string().nullable().describe("Meta's throughput.level: STANDARD or HIGH"),
  messagingLimit: z
    .object({
      tier: z.string().nullable(),
      perDay: z.number().int().nullable().describe('new people per rolling 24 h; null when unlimited or not known'),
      unlimited: z.boolean(),
      portfolio: z.string().describe('the portfolio id, or number:<phoneNumberId> for a number of unknown portfolio'),
      portfolioNumbers: z.array(z.string()).describe('phone number ids sharing this limit'),
      usedLast24h: z.number().int().describe("people the portfolio's numbers started conversations with in the last 24 h"),
    })
    .describe("the portfolio's messaging limit, shared by all its numbers"),
  campaigns: z
    .array(z.object({ id: z.number().int(), name: z.string(), status: z.string() }))
    .describe('campaigns running, scheduled or paused on this number'),
  syncedAt: isoTime.nullable().describe('when Pacer last read the number from Meta (pacer sender sync); null: never'),
  updatedAt: isoTime,
});

const changeSchema = z.object({
  at: isoTime,
  qualityRating: z.string().nullable(),
  messagingLimitTier: z.string().nullable(),
  state: z.enum(STATES),
  stateReason: z.string().nullable(),
  source: z.string().describe('the signal that changed it, e.g. `phone_quality FLAGGED`'),
});

const phoneNumberParams = z.object({
  phoneNumberId: z
    .string()
    .regex(/^\d{1,32}$/, "Meta's phone number id: digits only")
    .describe("Meta's phone number id"),
});

/** Sender numbers: each with its health, limit and campaigns; one with its recent changes. */
export function senderRoutes(deps: ApiDeps): AnyRoute[] {
  const { store, clock } = deps;
  return [
    route({
      method: 'GET',
      url: '/senders',
      scope: 'read',
      operationId: 'listSenders',
      tag: 'senders',
      summary: "Every sender number: Meta's status, Pacer's state, quality, throughput, the portfolio's messaging limit and campaigns",
      responses: { 200: { description: 'Every known number', schema: z.object({ items: z.array(senderSchema) }) } },
      handler: async () => ({ items: (await sendersOverview(store, clock.now(), { history: false })).map(senderOverviewJson) }),
    }),
    route({
      method: 'GET',
      url: '/senders/:phoneNumberId',
      scope: 'read',
      operationId: 'getSender',
      tag: 'senders',
      summary: `One sender number with its quality, limit and state changes over ${SENDER_HISTORY_DAYS} days`,
      params: phoneNumberParams,
      responses: {
        200: { description: 'The number', schema: senderSchema.extend({ history: z.array(changeSchema).describe('oldest first') }) },
        404: { description: 'Pacer knows no number with this id' },
      },
      handler: async ({ params }) => {
        const found = await senderOverview(store, params.phoneNumberId, clock.now());
        if (found === null)
          throw new ApiError(
            404,
            'unknown_sender',
            `no sender number ${params.phoneNumberId}: GET /api/v1/senders lists the known ones; pacer sender sync reads them from Meta`,
          );
        return { ...senderOverviewJson(found), history: senderHistoryJson(found) };
      },
    }),
  ];
}
