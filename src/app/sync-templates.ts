import type { Category } from '../core/category.js';
import { parseMetaTemplate, type MetaTemplate } from '../core/template-definition.js';
import type { Millis } from '../core/time.js';
import type { ApiFailure, TemplateApi } from '../ports/cloud-api.js';
import type { JsonValue, SyncedTemplateInput, Template, TemplateStore } from '../ports/store.js';

/** A runaway cursor (Meta's, or a proxy's) ends the sync instead of looping. */
const MAX_PAGES = 1000;

export interface SyncTemplatesDeps {
  store: TemplateStore;
  api: TemplateApi;
  now: () => Millis;
}

export interface RefusedTemplate {
  /** Meta's id, name and language when the object had them. */
  id: string | null;
  name: string | null;
  language: string | null;
  reason: string;
}

export interface TemplateSyncReport {
  pages: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Synced earlier, not listed now: marked `deleted`. */
  removed: number;
  /** Registered offline (`pacer template add`) and not on the account: left as they are. */
  offlineOnly: number;
  refused: RefusedTemplate[];
}

export type TemplateSyncResult = { ok: true; report: TemplateSyncReport } | { ok: false; reason: string };

export function describeFailure(failure: ApiFailure): string {
  return failure.kind === 'rejected'
    ? `Meta refused it: (#${failure.code}) ${failure.message}${failure.details ? ` (${failure.details})` : ''}`
    : `no usable answer (${failure.reason}: ${failure.detail})`;
}

const key = (name: string, language: string) => `${name}\u0000${language}`;

/**
 * Brings the store in line with the account's templates: every page of Meta's list is read first,
 * and only a complete list is applied, so an interrupted sync marks nothing as removed. The category,
 * status and quality are Meta's; a template Meta lists but Pacer cannot read is reported and left
 * as it was.
 */
export async function syncTemplates(deps: SyncTemplatesDeps, wabaId: string): Promise<TemplateSyncResult> {
  const listed: unknown[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const answer = await deps.api.listTemplates(wabaId, after);
    if (answer.kind !== 'ok') return { ok: false, reason: `listing templates (page ${pages + 1}): ${describeFailure(answer)}` };
    pages++;
    listed.push(...answer.page.data);
    if (answer.page.next === null) break;
    if (answer.page.after === null || answer.page.after === after) {
      return { ok: false, reason: `listing templates (page ${pages}): paging.next is set but the after cursor does not move on` };
    }
    if (pages >= MAX_PAGES) return { ok: false, reason: `listing templates: more than ${MAX_PAGES} pages` };
    after = answer.page.after;
  }

  const now = deps.now();
  const existing = new Map((await deps.store.listTemplates()).map((t) => [key(t.name, t.language), t]));
  const report: TemplateSyncReport = { pages, added: 0, updated: 0, unchanged: 0, removed: 0, offlineOnly: 0, refused: [] };
  const seen = new Set<string>();
  const writes: SyncedTemplateInput[] = [];
  for (const raw of listed) {
    const parsed = parseMetaTemplate(raw);
    const identity = identityOf(raw);
    if (identity.name !== null && identity.language !== null) seen.add(key(identity.name, identity.language));
    if (!parsed.ok) {
      report.refused.push({ ...identity, reason: parsed.reason });
      continue;
    }
    const t = parsed.template;
    if (writes.some((w) => w.name === t.name && w.language === t.language)) {
      report.refused.push({ ...identity, reason: `listed twice for ${t.name} (${t.language})` });
      continue;
    }
    const current = existing.get(key(t.name, t.language));
    const next = toStored(t, current);
    if (current === undefined) report.added++;
    else if (sameAsStored(next, current)) report.unchanged++;
    else report.updated++;
    writes.push(next);
  }
  await deps.store.upsertSyncedTemplates(writes, now);

  const gone: Template[] = [];
  for (const [k, t] of existing) {
    if (seen.has(k)) continue;
    if (t.metaId === null) report.offlineOnly++;
    else if (t.status !== 'deleted') gone.push(t);
  }
  // Meta no longer lists it: it was deleted there (deleted templates cannot be sent).
  await deps.store.upsertTemplates(
    gone.map((t) => ({ ...t, status: 'deleted', pausedUntil: null })),
    now,
  );
  report.removed = gone.length;
  return { ok: true, report };
}

export type TemplateRefreshResult = { ok: true; template: Template } | { ok: false; reason: string };

/** Fetches one template again (after a webhook that carried only part of it) and stores it whole. */
export async function refreshTemplate(deps: SyncTemplatesDeps, metaTemplateId: string): Promise<TemplateRefreshResult> {
  const answer = await deps.api.getTemplate(metaTemplateId);
  if (answer.kind !== 'ok') return { ok: false, reason: `fetching template ${metaTemplateId}: ${describeFailure(answer)}` };
  const parsed = parseMetaTemplate(answer.template);
  if (!parsed.ok) return { ok: false, reason: `template ${metaTemplateId} refused: ${parsed.reason}` };
  const t = parsed.template;
  const current = await deps.store.getTemplate(t.name, t.language);
  const [id] = await deps.store.upsertSyncedTemplates([toStored(t, current ?? undefined)], deps.now());
  const stored = id === undefined ? null : await deps.store.getTemplateById(id);
  return stored === null ? { ok: false, reason: `template ${metaTemplateId} was not stored` } : { ok: true, template: stored };
}

function identityOf(raw: unknown): { id: string | null; name: string | null; language: string | null } {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
  return { id: text(o['id']), name: text(o['name']), language: text(o['language']) };
}

function toStored(t: MetaTemplate, current: Template | undefined): SyncedTemplateInput {
  const category: Category = t.category;
  return {
    name: t.name,
    language: t.language,
    category,
    status: t.status,
    // Asked for, but Meta may leave it out; then the last quality webhook's score stands.
    quality: t.quality ?? current?.quality ?? null,
    // The list does not say when a pause ends; the pause webhook did.
    pausedUntil: t.status === 'paused' && current?.status === 'paused' ? current.pausedUntil : null,
    metaId: t.metaId,
    subCategory: t.definition.subCategory,
    parameterFormat: t.definition.parameterFormat,
    components: t.components as JsonValue[],
    sendTtlSeconds: t.definition.messageSendTtlSeconds,
  };
}

function sameAsStored(next: SyncedTemplateInput, current: Template): boolean {
  return (
    current.metaId === next.metaId &&
    current.category === next.category &&
    current.status === next.status &&
    current.quality === next.quality &&
    current.pausedUntil === next.pausedUntil &&
    current.subCategory === next.subCategory &&
    current.parameterFormat === next.parameterFormat &&
    current.sendTtlSeconds === (next.sendTtlSeconds ?? null) &&
    canonical(current.components) === canonical(next.components)
  );
}

/** JSON with sorted keys: PostgreSQL's JSONB does not keep key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
