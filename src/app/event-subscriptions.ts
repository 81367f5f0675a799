import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { SubscribedType } from '../core/event-subscription.js';
import { OUTBOUND_EVENT_TYPES } from '../core/outbound-event.js';
import type { Millis } from '../core/time.js';
import type { CampaignStore, EventSubscription, EventSubscriptionStore } from '../ports/store.js';

/** Standard Webhooks' secret prefix; the rest is the key in base64. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const MAX_URL = 2000;

export const SUBSCRIBABLE_TYPES: readonly SubscribedType[] = ['*', ...OUTBOUND_EVENT_TYPES];

/** A new signing secret: 32 random bytes, `whsec_` + base64, as Standard Webhooks libraries read it. */
export function newSigningSecret(random: (size: number) => Buffer = randomBytes): string {
  return `${SECRET_PREFIX}${random(SECRET_BYTES).toString('base64')}`;
}

/** Why a given secret cannot sign (null: it can): `whsec_` and base64 of 24 to 64 bytes. */
export function signingSecretProblem(secret: string): string | null {
  const key = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  if (key === null || !/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length % 4 !== 0) return 'a whsec_ prefix and a base64 key';
  const bytes = Buffer.from(key, 'base64').length;
  return bytes >= 24 && bytes <= 64 ? null : `a key of 24 to 64 bytes (this one has ${bytes})`;
}

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/**
 * Why a subscriber URL is refused (null: accepted): http or https, no user or password in it, no
 * fragment. In production mode it must be https unless it points at this machine (a loopback
 * address or `localhost`): deliveries carry what happened to contacts, and the signature proves who
 * sent them, not that nobody read them on the way.
 */
export function subscriptionUrlProblem(text: string, mode: 'production' | 'development'): string | null {
  if (text.length > MAX_URL) return `at most ${MAX_URL} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'an http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'a URL without a user or password (the signature authenticates Pacer)';
  if (url.hash !== '') return 'a URL without a #fragment';
  if (url.protocol === 'http:' && mode === 'production' && !isLoopback(url.hostname)) {
    return 'an https:// URL: plain http is accepted only to loopback addresses in production mode (PACER_MODE=development allows it)';
  }
  return null;
}

export interface SubscribeInput {
  url: string;
  eventTypes: readonly string[];
  campaignId?: number | null;
  phoneNumberId?: string | null;
  description?: string | null;
  /** Generated when absent. */
  secret?: string;
}

export interface SubscriptionIssue {
  field: 'url' | 'eventTypes' | 'campaignId' | 'phoneNumberId' | 'description' | 'secret';
  message: string;
}

export type SubscribeResult =
  { kind: 'created'; subscription: EventSubscription; secret: string } | { kind: 'invalid'; issues: SubscriptionIssue[] };

/**
 * Creates a subscription after checking everything it names; nothing is stored when anything is
 * wrong. The secret (given or generated) is returned here only: no read shows it again.
 */
export async function subscribeEvents(
  store: Pick<EventSubscriptionStore, 'createEventSubscription'> & Pick<CampaignStore, 'getCampaign'>,
  input: SubscribeInput,
  mode: 'production' | 'development',
  now: Millis,
): Promise<SubscribeResult> {
  const issues: SubscriptionIssue[] = [];
  const urlProblem = subscriptionUrlProblem(input.url, mode);
  if (urlProblem !== null) issues.push({ field: 'url', message: urlProblem });
  const unknown = input.eventTypes.filter((t) => !(SUBSCRIBABLE_TYPES as readonly string[]).includes(t));
  if (input.eventTypes.length === 0) issues.push({ field: 'eventTypes', message: 'at least one event type, or *' });
  if (unknown.length > 0) {
    issues.push({
      field: 'eventTypes',
      message: `unknown ${unknown.map((t) => JSON.stringify(t)).join(', ')}; one of ${SUBSCRIBABLE_TYPES.join(', ')}`,
    });
  }
  const campaignId = input.campaignId ?? null;
  if (campaignId !== null && (await store.getCampaign(campaignId)) === null)
    issues.push({ field: 'campaignId', message: `no campaign #${campaignId}` });
  const phoneNumberId = input.phoneNumberId ?? null;
  if (phoneNumberId !== null && !/^\d{1,30}$/.test(phoneNumberId))
    issues.push({ field: 'phoneNumberId', message: "a phone number id (Meta's, digits)" });
  const description = input.description?.trim() || null;
  if (description !== null && description.length > 200) issues.push({ field: 'description', message: 'at most 200 characters' });
  const secretProblem = input.secret === undefined ? null : signingSecretProblem(input.secret);
  if (secretProblem !== null) issues.push({ field: 'secret', message: secretProblem });
  if (issues.length > 0) return { kind: 'invalid', issues };
  const secret = input.secret ?? newSigningSecret();
  const eventTypes = [...new Set(input.eventTypes)] as SubscribedType[];
  const subscription = await store.createEventSubscription(
    { url: input.url, secret, eventTypes, campaignId, phoneNumberId, description },
    now,
  );
  return { kind: 'created', subscription, secret };
}
