import type { JsonValue } from '../../ports/json.js';
import type { PhoneNumberStatus } from './accounts-config.js';
import type { SimAccount, SimNumber } from './business-numbers.js';
import type { SimContext } from './context.js';
import { graphError, nonexistingField, type HandlerAnswer } from './graph-error.js';
import { majorVersion, requestedFields } from './graph-fields.js';

/**
 * `GET /{PHONE_NUMBER_ID}` and `GET /{WABA_ID}/phone_numbers` in Meta's shapes (reference §3.1,
 * §3.2): the default fields or those named in `fields=`, Graph's cursor paging, `summary=total_count`.
 */

const NODE_TYPE = 'WhatsAppBusinessPhoneNumber';
const DEFAULT_FIELDS = ['id', 'display_phone_number', 'verified_name', 'quality_rating'];
const DEFAULT_LIMIT = 25;

interface FieldSpec {
  value(n: SimNumber): JsonValue;
  /** API versions that have the field; outside them Graph says it does not exist. */
  fromVersion?: number;
  untilVersion?: number;
}

type Health = 'AVAILABLE' | 'LIMITED' | 'BLOCKED';

/** Whether a number of this status can send: only CONNECTED can (BPN); some statuses limit rather than stop it. */
function healthOf(status: PhoneNumberStatus): Health {
  if (status === 'CONNECTED') return 'AVAILABLE';
  if (status === 'FLAGGED' || status === 'RATE_LIMITED' || status === 'RESTRICTED') return 'LIMITED';
  return 'BLOCKED';
}

/** The number, its account and its portfolio, each with `can_send_message` (HEALTH); the whole is the number's. */
function healthStatus(n: SimNumber): JsonValue {
  const own = healthOf(n.config.status);
  const numberEntity: Record<string, JsonValue> = { entity_type: 'PHONE_NUMBER', id: n.who.phoneNumberId, can_send_message: own };
  if (own !== 'AVAILABLE') numberEntity['additional_info'] = [`The phone number's status is ${n.config.status}.`];
  return {
    can_send_message: own,
    entities: [
      numberEntity,
      { entity_type: 'WABA', id: n.who.wabaId, can_send_message: 'AVAILABLE' },
      { entity_type: 'BUSINESS', id: n.account.config.portfolioId, can_send_message: 'AVAILABLE' },
    ],
  };
}

const FIELDS: Record<string, FieldSpec> = {
  id: { value: (n) => n.who.phoneNumberId },
  display_phone_number: { value: (n) => n.who.displayPhoneNumber },
  verified_name: { value: (n) => n.config.verifiedName },
  quality_rating: { value: (n) => n.quality.rating },
  status: { value: (n) => n.config.status },
  name_status: { value: (n) => n.config.nameStatus },
  code_verification_status: { value: () => 'VERIFIED' },
  platform_type: { value: () => 'CLOUD_API' },
  // 80 mps is STANDARD, 1,000 after the upgrade is HIGH (THR).
  throughput: { value: (n) => ({ level: n.config.throughputMps >= 1000 ? 'HIGH' : 'STANDARD' }) },
  account_mode: { value: () => 'LIVE' },
  is_official_business_account: { value: () => false },
  // Deprecated: v23 and older only; v24 reads the portfolio's limit instead (ML).
  messaging_limit_tier: { value: (n) => n.account.config.messagingLimit, untilVersion: 23 },
  whatsapp_business_manager_messaging_limit: { value: (n) => n.account.config.messagingLimit, fromVersion: 24 },
  health_status: { value: healthStatus },
};

/**
 * Fields Meta's node has that the simulator does not model. Graph leaves out fields that are not
 * set, so asking for one is no error: the answer just lacks it.
 */
const UNSET_FIELDS = new Set([
  'quality_score',
  'new_name_status',
  'new_display_name',
  'is_on_biz_app',
  'is_pin_enabled',
  'is_preverified_number',
  'certificate',
  'new_certificate',
  'last_onboarded_time',
  'search_visibility',
  'eligibility_for_api_business_global_search',
  'conversational_automation',
  'webhook_configuration',
  'country_code',
  'country_dial_code',
]);

/** The number as Graph answers for `fields`; `id` always comes along, last when not asked for. */
function phoneNumberObject(n: SimNumber, version: string, fields: string[] | null): Record<string, JsonValue> | { nonexisting: string } {
  const major = majorVersion(version);
  const object: Record<string, JsonValue> = {};
  for (const name of fields ?? DEFAULT_FIELDS) {
    const spec = FIELDS[name];
    const inVersion = spec !== undefined && major >= (spec.fromVersion ?? 0) && major <= (spec.untilVersion ?? Infinity);
    if (spec === undefined || !inVersion) {
      if (UNSET_FIELDS.has(name)) continue;
      return { nonexisting: name };
    }
    object[name] = spec.value(n);
  }
  if (!('id' in object)) object['id'] = n.who.phoneNumberId;
  return object;
}

export function getPhoneNumber(ctx: SimContext, n: SimNumber, version: string, query: URLSearchParams): HandlerAnswer {
  const object = phoneNumberObject(n, version, requestedFields(query.get('fields')));
  if ('nonexisting' in object) return nonexistingField(ctx, String(object.nonexisting), NODE_TYPE);
  return { status: 200, body: object };
}

/** Opaque cursors, as Graph's are: here the base64 of the number's id. */
const cursorOf = (n: SimNumber): string => Buffer.from(`phone_number:${n.who.phoneNumberId}`).toString('base64url');

function indexOfCursor(numbers: readonly SimNumber[], cursor: string): number {
  const id = /^phone_number:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  return id === undefined ? -1 : numbers.findIndex((n) => n.who.phoneNumberId === id);
}

/**
 * One page of the account's numbers, in the order configured: `limit` of them after the `after`
 * cursor (or before the `before` one), `paging.previous`/`next` only where there is such a page.
 */
export function listPhoneNumbers(ctx: SimContext, account: SimAccount, version: string, query: URLSearchParams): HandlerAnswer {
  const numbers = account.numbers;
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1) return graphError(ctx, 100, `Param limit must be a positive integer, got ${limitText ?? ''}`);
  const after = query.get('after');
  const before = query.get('before');
  let start = 0;
  let end = limit;
  if (after !== null) {
    const at = indexOfCursor(numbers, after);
    if (at < 0) return graphError(ctx, 100, 'Invalid cursor: after');
    start = at + 1;
    end = start + limit;
  } else if (before !== null) {
    const at = indexOfCursor(numbers, before);
    if (at < 0) return graphError(ctx, 100, 'Invalid cursor: before');
    end = at;
    start = Math.max(0, end - limit);
  }
  const page = numbers.slice(start, end);

  const fields = requestedFields(query.get('fields'));
  // An unknown field is refused even when the page is empty, as Graph checks the request first.
  const probe = phoneNumberObject(account.numbers[0] as SimNumber, version, fields);
  if ('nonexisting' in probe) return nonexistingField(ctx, String(probe.nonexisting), NODE_TYPE);
  const body: Record<string, JsonValue> = { data: page.map((n) => phoneNumberObject(n, version, fields) as Record<string, JsonValue>) };

  const first = page[0];
  const last = page[page.length - 1];
  if (first !== undefined && last !== undefined) {
    const link = (cursor: 'after' | 'before', value: string): string => {
      const params = new URLSearchParams(query);
      params.delete('after');
      params.delete('before');
      params.set('limit', String(limit));
      params.set(cursor, value);
      return `https://graph.facebook.com/${version}/${account.config.wabaId}/phone_numbers?${params.toString()}`;
    };
    const paging: Record<string, JsonValue> = { cursors: { before: cursorOf(first), after: cursorOf(last) } };
    if (start > 0) paging['previous'] = link('before', cursorOf(first));
    if (start + page.length < numbers.length) paging['next'] = link('after', cursorOf(last));
    body['paging'] = paging;
  }
  const summary = (query.get('summary') ?? '').split(',').map((s) => s.trim());
  if (summary.includes('total_count') || summary.includes('true')) body['summary'] = { total_count: numbers.length };
  return { status: 200, body };
}
