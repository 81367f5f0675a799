import { parseLenient } from './lenient-parse.js';
import {
  accountUpdateItems,
  businessCapabilityItems,
  phoneQualityItems,
  templateCategoryItems,
  templateComponentsItems,
  templateQualityItems,
  templateStatusItems,
} from './management-items.js';
import { messagesItems, userIdUpdateItems, userPreferenceItems, type ChangeContext } from './messages-items.js';
import type { ParsedWebhook, WebhookItem, WebhookProblem } from '../../ports/webhook-items.js';
import { formatPath, ROOT_PATH } from './webhook-path.js';
import { changeSchema, entrySchema, WHATSAPP_OBJECT } from './webhook-schema.js';

type FieldParser = (value: unknown, ctx: ChangeContext) => WebhookItem[];

/** Fields we act on; every other field becomes an `ignored` item. */
const FIELD_PARSERS: Readonly<Record<string, FieldParser>> = {
  messages: messagesItems,
  user_preferences: userPreferenceItems,
  user_id_update: userIdUpdateItems,
  message_template_status_update: templateStatusItems,
  message_template_quality_update: templateQualityItems,
  template_category_update: templateCategoryItems,
  message_template_components_update: templateComponentsItems,
  phone_number_quality_update: phoneQualityItems,
  account_update: accountUpdateItems,
  business_capability_update: businessCapabilityItems,
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns a webhook body (already JSON-decoded) into one item per status, inbound message,
 * preference and account change, across every entry and change. Never throws: whatever cannot be
 * used is reported as a problem naming its exact path, and everything next to it is still kept.
 */
export function parseWebhook(body: unknown): ParsedWebhook {
  if (!isRecord(body)) {
    return { items: [], problems: [{ path: ROOT_PATH, message: `expected a JSON object, got ${describe(body)}` }] };
  }
  if (body.object !== WHATSAPP_OBJECT) {
    const message = `expected object "${WHATSAPP_OBJECT}", got ${body.object === undefined ? 'nothing' : describe(body.object)}`;
    return { items: [], problems: [{ path: 'object', message }] };
  }
  const problems: WebhookProblem[] = [];
  if (!Array.isArray(body.entry)) {
    return { items: [], problems: [{ path: 'entry', message: `expected an array of entries, got ${describe(body.entry)}` }] };
  }
  const items: WebhookItem[] = [];
  body.entry.forEach((rawEntry, e) => {
    const entry = parseLenient(entrySchema, rawEntry, ['entry', e], problems);
    if (entry === undefined) return;
    entry.changes.forEach((rawChange, c) => {
      const path = ['entry', e, 'changes', c] as const;
      const change = parseLenient(changeSchema, rawChange, path, problems);
      if (change === undefined) return;
      const ctx: ChangeContext = { wabaId: entry.id, entryAt: entry.time ?? null, path: [...path, 'value'], problems };
      const parse = Object.hasOwn(FIELD_PARSERS, change.field) ? FIELD_PARSERS[change.field] : undefined;
      if (parse) {
        items.push(...parse(change.value, ctx));
      } else {
        items.push({
          kind: 'ignored',
          source: { wabaId: entry.id, phoneNumberId: null },
          path: formatPath(path),
          field: change.field,
          at: ctx.entryAt,
        });
      }
    });
  });
  return { items, problems };
}
