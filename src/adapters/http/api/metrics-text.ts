import type { SenderOverview } from '../../../app/sender-overview.js';
import type { SenderState, OutboxTotals } from '../../../ports/store.js';
import { AUTH_SURFACES, type AuthSurface } from '../auth-failures.js';
import { WEBHOOK_REJECT_REASONS, type HttpMetrics } from '../http-metrics.js';
import type { AuthCounters } from './auth-hook.js';

export interface MetricsSnapshot {
  outbox: OutboxTotals;
  campaignsPaused: number;
  /** Each number with its portfolio limit's use (`sendersOverview`, without history). */
  senders: readonly Pick<SenderOverview, 'sender' | 'sending' | 'limit'>[];
  http: HttpMetrics;
  api: AuthCounters;
  /** Attempts refused because their address made too many failed authentications, by surface. */
  authLimited: Readonly<Record<AuthSurface, number>>;
}

type Sample = [labels: Record<string, string>, value: number];

const SENDER_STATES: readonly SenderState[] = ['ok', 'throttled', 'stopped'];
/** Meta's phone quality ratings (NA: not yet rated), and FLAGGED, which Pacer records from a quality webhook. */
export const QUALITY_RATINGS: readonly string[] = ['GREEN', 'YELLOW', 'RED', 'FLAGGED', 'NA', 'UNKNOWN'];

/** 1 for the number's rating (null counts as UNKNOWN; a rating not listed gets a sample of its own), 0 for the others. */
function qualitySamples(phoneNumberId: string, rating: string | null): Sample[] {
  const current = rating?.trim().toUpperCase() || 'UNKNOWN';
  const ratings = QUALITY_RATINGS.includes(current) ? QUALITY_RATINGS : [...QUALITY_RATINGS, current];
  return ratings.map((r): Sample => [{ phone_number_id: phoneNumberId, rating: r }, r === current ? 1 : 0]);
}

/** Numbers whose tier is not known have no sample; an unlimited tier is +Inf. */
function limitSamples(senders: MetricsSnapshot['senders']): Sample[] {
  return senders.flatMap(({ sender, limit }): Sample[] =>
    limit.perDay !== null
      ? [[{ phone_number_id: sender.phoneNumberId }, limit.perDay]]
      : limit.unlimited
        ? [[{ phone_number_id: sender.phoneNumberId }, Infinity]]
        : [],
  );
}

function family(name: string, type: 'counter' | 'gauge', help: string, samples: readonly Sample[]): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, value] of samples) {
    const l = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`)
      .join(',');
    lines.push(`${name}${l === '' ? '' : `{${l}}`} ${value === Infinity ? '+Inf' : value}`);
  }
  return lines.join('\n');
}

/**
 * The Prometheus text exposition (format 0.0.4), written by hand: a handful of families does not
 * justify a metrics library. Outbox figures are read from the store, so every worker process sharing
 * the database reports the same truth; webhook and API counters are this process's own.
 */
export function renderMetrics(m: MetricsSnapshot): string {
  return `${[
    family(
      'pacer_outbox_rows',
      'gauge',
      'Outbox rows by status (queued and held are the queue depth).',
      Object.entries(m.outbox.byStatus).map(([status, n]) => [{ status }, n]),
    ),
    family(
      'pacer_outbox_outcomes',
      'gauge',
      'Outbox rows by their latest outcome (sends by outcome: accepted, delivered, read, failed, skipped, capped_exhausted, cancelled).',
      Object.entries(m.outbox.byOutcome).map(([outcome, n]) => [{ outcome }, n]),
    ),
    family('pacer_campaigns_paused', 'gauge', 'Campaigns currently paused, by an operator or a breaker.', [[{}, m.campaignsPaused]]),
    family(
      'pacer_sender_state',
      'gauge',
      'Each sender number by state: 1 for the state it is in (stopped: it cannot send until an operator acts), 0 for the others.',
      m.senders.flatMap(({ sender: s }) =>
        SENDER_STATES.map((state): Sample => [{ phone_number_id: s.phoneNumberId, state }, s.state === state ? 1 : 0]),
      ),
    ),
    family(
      'pacer_sender_can_send',
      'gauge',
      'Each sender number: 1 when it can send (throttled numbers included), 0 when Pacer stopped it or Meta reports it other than CONNECTED.',
      m.senders.map(({ sender, sending }): Sample => [{ phone_number_id: sender.phoneNumberId }, sending.kind === 'cannot_send' ? 0 : 1]),
    ),
    family(
      'pacer_sender_throughput_mps',
      'gauge',
      'Messages a second each sender number may send (Meta: 80 at STANDARD, 1000 at HIGH).',
      m.senders.map(({ sender }): Sample => [{ phone_number_id: sender.phoneNumberId }, sender.throughputMps]),
    ),
    family(
      'pacer_sender_quality_rating',
      'gauge',
      `Each sender number by Meta's quality rating: 1 for its rating, 0 for the others (${QUALITY_RATINGS.join(', ')}; UNKNOWN until Meta rates it).`,
      m.senders.flatMap(({ sender }) => qualitySamples(sender.phoneNumberId, sender.qualityRating)),
    ),
    family(
      'pacer_sender_messaging_limit_per_day',
      'gauge',
      "New people per rolling 24 h the number's business portfolio may start conversations with (shared by all its numbers); +Inf when unlimited, absent while the tier is not known.",
      limitSamples(m.senders),
    ),
    family(
      'pacer_sender_messaging_limit_used',
      'gauge',
      "People the number's business portfolio started conversations with in the last 24 h (all its numbers together), against pacer_sender_messaging_limit_per_day.",
      m.senders.map(({ sender, limit }): Sample => [{ phone_number_id: sender.phoneNumberId }, limit.usedLast24h]),
    ),
    family('pacer_webhooks_stored_total', 'counter', 'Webhook payloads committed to the inbox and acknowledged.', [
      [{}, m.http.webhookStored],
    ]),
    family(
      'pacer_webhooks_rejected_total',
      'counter',
      'Webhook POSTs refused with 401 for their signature, by reason.',
      WEBHOOK_REJECT_REASONS.map((reason) => [{ reason }, m.http.webhookRejected[reason]]),
    ),
    family('pacer_webhooks_too_large_total', 'counter', 'Webhook bodies over the size limit (413).', [[{}, m.http.webhookTooLarge]]),
    family(
      'pacer_webhooks_busy_total',
      'counter',
      'Webhook POSTs answered 503 because the bodies already being received reached their byte limit.',
      [[{}, m.http.webhookBusy]],
    ),
    family('pacer_webhooks_body_timeout_total', 'counter', 'Webhook POSTs whose body did not arrive in time (408).', [
      [{}, m.http.webhookBodyTimeout],
    ]),
    family('pacer_webhooks_store_failed_total', 'counter', 'Webhook POSTs answered 503 because the store refused the write.', [
      [{}, m.http.webhookStoreFailed],
    ]),
    family('pacer_inbox_batches_total', 'counter', 'Inbox group commits.', [[{}, m.http.inboxBatches]]),
    family(
      'pacer_api_unauthorized_total',
      'counter',
      'API requests refused with 401, by reason.',
      Object.entries(m.api.refused).map(([reason, n]) => [{ reason }, n]),
    ),
    family('pacer_api_rate_limited_total', 'counter', 'API requests refused with 429.', [[{}, m.api.rateLimited]]),
    family('pacer_api_insufficient_scope_total', 'counter', "API requests refused with 403: the token's scope is below the route's.", [
      [{}, m.api.insufficientScope],
    ]),
    family(
      'pacer_auth_failures_limited_total',
      'counter',
      'Requests refused with 429 because their address made too many failed authentications, by surface.',
      AUTH_SURFACES.map((surface) => [{ surface }, m.authLimited[surface]]),
    ),
  ].join('\n')}\n`;
}
