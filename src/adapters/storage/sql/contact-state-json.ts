import { CATEGORIES, type Category } from '../../../core/category.js';
import type { Cause, ConsentFact, ContactState, Engagement, MarketingFacts } from '../../../core/contact-state.js';
import type { Capabilities } from '../capabilities.js';
import { json, toJson } from './values.js';

/**
 * How a contact's state is stored: its defaults left out (a null, a false flag, an empty list, a
 * category with no consent or no engagement), so most rows are a third of the full object. Every row
 * is rewritten on each event, so its size is paid in JSON work and pages written per webhook.
 *
 * SQL that reads the state by path (segments, diagnosis) gets NULL for a missing key, as it did
 * for a JSON null; numbers other than null are always written. Rows written whole by earlier
 * versions read back the same.
 */
export function storedContactState(state: ContactState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const consent = entries(state.consent, (f) =>
    f.status === 'unknown' && f.at === null && f.source === null && f.evidence === null ? null : without(f),
  );
  if (consent !== null) out['consent'] = consent;
  put(out, 'windowOpenUntil', state.windowOpenUntil);
  put(out, 'freeEntryUntil', state.freeEntryUntil);
  put(out, 'lastInboundAt', state.lastInboundAt);
  put(out, 'lastReachedAt', state.lastReachedAt);
  out['marketing'] = storedMarketing(state.marketing);
  if (state.unreachable !== null) out['unreachable'] = without(state.unreachable);
  const engagement = entries(state.engagement, (e) => (e.lastDeliveredAt === null && e.lastReadAt === null ? null : without(e)));
  if (engagement !== null) out['engagement'] = engagement;
  if (state.seen.length > 0) out['seen'] = state.seen;
  return out;
}

/** The `state` column's value for a state. */
export function stateColumn(state: ContactState): string {
  return toJson(storedContactState(state));
}

/** A state from the `state` column's value, as the driver returns it. */
export function stateFromColumn(caps: Capabilities, value: unknown): ContactState {
  return contactStateFromStored(json(caps, value));
}

function storedMarketing(m: MarketingFacts): Record<string, unknown> {
  const out: Record<string, unknown> = { consecutiveCaps: m.consecutiveCaps };
  put(out, 'coolOffUntil', m.coolOffUntil);
  for (const key of ['lastCap', 'experiment', 'stopped', 'resumed'] as const) {
    const cause = m[key];
    if (cause !== null) out[key] = without(cause);
  }
  if (m.recentSends.length > 0) out['recentSends'] = m.recentSends;
  if (m.marketingApiTriedAfterCap) out['marketingApiTriedAfterCap'] = true;
  return out;
}

/** The stored form read back: every key present, in the order the core builds them. */
export function contactStateFromStored(raw: unknown): ContactState {
  const s = record(raw);
  const consent = record(s['consent']);
  const engagement = record(s['engagement']);
  return {
    consent: perCategory((c) => consentFact(consent[c])),
    windowOpenUntil: num(s['windowOpenUntil']),
    freeEntryUntil: num(s['freeEntryUntil']),
    lastInboundAt: num(s['lastInboundAt']),
    lastReachedAt: num(s['lastReachedAt']),
    marketing: marketingFacts(record(s['marketing'])),
    unreachable: cause(s['unreachable']),
    engagement: perCategory((c) => engagementOf(engagement[c])),
    seen: list<string>(s['seen']),
  };
}

function marketingFacts(m: Record<string, unknown>): MarketingFacts {
  return {
    coolOffUntil: num(m['coolOffUntil']),
    consecutiveCaps: typeof m['consecutiveCaps'] === 'number' ? m['consecutiveCaps'] : 0,
    lastCap: cause(m['lastCap']),
    experiment: cause(m['experiment']),
    stopped: cause(m['stopped']),
    resumed: cause(m['resumed']),
    recentSends: list<{ messageId: string; at: number }>(m['recentSends']),
    marketingApiTriedAfterCap: m['marketingApiTriedAfterCap'] === true,
  };
}

function consentFact(raw: unknown): ConsentFact {
  const f = record(raw);
  return {
    status: typeof f['status'] === 'string' ? (f['status'] as ConsentFact['status']) : 'unknown',
    at: num(f['at']),
    source: str(f['source']),
    evidence: str(f['evidence']),
  };
}

function engagementOf(raw: unknown): Engagement {
  const e = record(raw);
  return { lastDeliveredAt: num(e['lastDeliveredAt']), lastReadAt: num(e['lastReadAt']) };
}

function cause(raw: unknown): Cause | null {
  if (raw === null || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  return { eventId: String(c['eventId']), type: c['type'] as Cause['type'], at: Number(c['at']), detail: str(c['detail']) };
}

function perCategory<T>(of: (category: Category) => T): Record<Category, T> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, of(c)])) as Record<Category, T>;
}

function entries<T>(
  byCategory: Readonly<Record<Category, T>>,
  keep: (value: T) => Record<string, unknown> | null,
): Record<string, unknown> | null {
  let out: Record<string, unknown> | null = null;
  for (const c of CATEGORIES) {
    const stored = keep(byCategory[c]);
    if (stored !== null) (out ??= {})[c] = stored;
  }
  return out;
}

/** The object without its null values. */
function without(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = v;
  return out;
}

function put(out: Record<string, unknown>, key: string, value: number | null): void {
  if (value !== null) out[key] = value;
}

function record(raw: unknown): Record<string, unknown> {
  return raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
}

function num(raw: unknown): number | null {
  return typeof raw === 'number' ? raw : null;
}

function str(raw: unknown): string | null {
  return typeof raw === 'string' ? raw : null;
}

function list<T>(raw: unknown): readonly T[] {
  return Array.isArray(raw) ? (raw as T[]) : [];
}
