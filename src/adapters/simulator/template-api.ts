import type { Millis } from '../../core/time.js';
import type { JsonValue } from '../../ports/json.js';
import type { SimAccount } from './business-numbers.js';
import type { TemplateCategory } from './config.js';
import type { SimContext } from './context.js';
import { unixSeconds } from './payloads.js';
import type { TemplateState } from './template-quality.js';
import type { HandlerAnswer } from './graph-error.js';
import { componentsOf } from './template-shape.js';

/** `GET /{WABA_ID}/message_templates` and `GET /{TEMPLATE_ID}`, in Meta's shapes (§1.1, §1.5); each account has its own. */

const DEFAULT_LIMIT = 25;

/** The template object with every field Meta could return; `fields=` narrows it as Meta does. */
function templateObject(t: TemplateState, now: Millis): Record<string, JsonValue> {
  const c = t.config;
  const object: Record<string, JsonValue> = {
    id: String(t.id),
    name: c.name,
    language: c.language,
    status: t.status,
    category: c.category,
    parameter_format: c.parameterFormat ?? 'POSITIONAL',
    components: componentsOf(c),
    quality_score: { score: t.quality, date: unixSeconds(now) },
  };
  if (c.subCategory !== undefined) object['sub_category'] = c.subCategory;
  if (c.messageSendTtlSeconds !== undefined) object['message_send_ttl_seconds'] = c.messageSendTtlSeconds;
  return object;
}

function withFields(object: Record<string, JsonValue>, fields: string | null): Record<string, JsonValue> {
  if (fields === null) return object;
  const wanted = new Set(['id', ...fields.split(',').map((f) => f.trim())]);
  return Object.fromEntries(Object.entries(object).filter(([key]) => wanted.has(key)));
}

/** Opaque cursors, as Meta's are: here the base64 of a position in the list. */
const cursor = (position: number): string => Buffer.from(`sim-cursor:${position}`).toString('base64url');

function position(value: string): number | null {
  const match = /^sim-cursor:(\d+)$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  return match === null ? null : Number(match[1]);
}

export function listTemplates(
  ctx: SimContext,
  account: SimAccount,
  version: string,
  query: URLSearchParams,
): HandlerAnswer | { error: string } {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1) return { error: `(#100) Param limit must be a positive integer, got ${limitText ?? ''}` };
  const after = query.get('after');
  const start = after === null ? 0 : position(after);
  if (start === null) return { error: '(#100) Invalid cursor: after' };
  const listed = account.templates.templates.filter((t) => !t.removed);
  const page = listed.slice(start, start + limit);
  const fields = query.get('fields');
  const body: Record<string, JsonValue> = {
    data: page.map((t) => withFields(templateObject(t, ctx.scheduler.now()), fields)),
    paging: { cursors: { before: cursor(start), after: cursor(start + page.length) } },
  };
  if (start + page.length < listed.length) {
    const next = new URLSearchParams(query);
    next.set('after', cursor(start + page.length));
    next.set('limit', String(limit));
    (body['paging'] as Record<string, JsonValue>)['next'] =
      `https://graph.facebook.com/${version}/${account.config.wabaId}/message_templates?${next.toString()}`;
  }
  return { status: 200, body };
}

/** A template of one of the accounts the token reaches. */
export function templateById(reachable: readonly SimAccount[], id: string): TemplateState | undefined {
  for (const account of reachable) {
    const t = account.templates.byId(id);
    if (t !== undefined) return t;
  }
  return undefined;
}

export function getTemplate(ctx: SimContext, t: TemplateState, query: URLSearchParams): HandlerAnswer {
  return { status: 200, body: withFields(templateObject(t, ctx.scheduler.now()), query.get('fields')) };
}

function find(account: SimAccount, name: string, language: string): TemplateState {
  const t = account.templates.template(name, language);
  if (t === undefined) throw new Error(`simulator: no template ${name} (${language}) in account ${account.config.wabaId}`);
  return t;
}

/** Meta moves the template to another category and says so (`template_category_update`, completed). */
export function recategoriseTemplate(
  ctx: SimContext,
  account: SimAccount,
  name: string,
  language: string,
  category: TemplateCategory,
  at: Millis,
): void {
  const t = find(account, name, language);
  const previous = t.config.category;
  t.config.category = category;
  // Meta resets a recategorised template's time-to-live to its new category's default.
  delete t.config.messageSendTtlSeconds;
  emit(ctx, account, 'template_category_update', t, { previous_category: previous, new_category: category }, at);
}

/** The business edits the template; Meta's webhook carries the new body text only. */
export function editTemplate(
  ctx: SimContext,
  account: SimAccount,
  name: string,
  language: string,
  components: JsonValue[],
  at: Millis,
): void {
  const t = find(account, name, language);
  t.config.components = components;
  const body = components.find((c) => typeof c === 'object' && c !== null && !Array.isArray(c) && c['type'] === 'BODY');
  const text = typeof body === 'object' && body !== null && !Array.isArray(body) ? body['text'] : undefined;
  emit(ctx, account, 'message_template_components_update', t, { message_template_element: typeof text === 'string' ? text : '' }, at);
}

/** The business deletes the template: it leaves the list and Meta announces `DELETED`. */
export function removeTemplate(ctx: SimContext, account: SimAccount, name: string, language: string, at: Millis): void {
  const t = find(account, name, language);
  t.removed = true;
  emit(
    ctx,
    account,
    'message_template_status_update',
    t,
    { event: 'DELETED', reason: null, message_template_category: t.config.category },
    at,
  );
}

function emit(ctx: SimContext, account: SimAccount, field: string, t: TemplateState, value: Record<string, JsonValue>, at: Millis): void {
  ctx.delivery.emit(
    {
      kind: 'account',
      field,
      value: { message_template_id: t.id, message_template_name: t.config.name, message_template_language: t.config.language, ...value },
      at,
    },
    at,
    account,
  );
}
