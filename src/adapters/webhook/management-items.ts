import { parseLenient } from './lenient-parse.js';
import {
  accountUpdateValueSchema,
  businessCapabilityValueSchema,
  phoneQualityValueSchema,
  templateCategoryValueSchema,
  templateComponentsValueSchema,
  templateQualityValueSchema,
  templateStatusValueSchema,
} from './management-schema.js';
import type { ChangeContext } from './messages-items.js';
import type { WebhookItem, WebhookSource } from '../../ports/webhook-items.js';
import { formatPath } from './webhook-path.js';

/** Account-level changes (templates, quality, limits, account events): one item per change. */

interface Base {
  source: WebhookSource;
  path: string;
  at: ChangeContext['entryAt'];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function baseOf(ctx: ChangeContext): Base {
  return { source: { wabaId: ctx.wabaId, phoneNumberId: null }, path: formatPath(ctx.path), at: ctx.entryAt };
}

function templateRef(v: { message_template_id: string; message_template_name?: string | null; message_template_language?: string | null }) {
  return { templateId: v.message_template_id, name: v.message_template_name ?? null, language: v.message_template_language ?? null };
}

export function templateStatusItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(templateStatusValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [
    {
      kind: 'template_status',
      ...baseOf(ctx),
      ...templateRef(v),
      event: v.event,
      reason: v.reason ?? null,
      category: v.message_template_category ?? null,
      otherInfo: v.other_info ? { title: v.other_info.title ?? null, description: v.other_info.description ?? null } : null,
      rejectionInfo: v.rejection_info
        ? { reason: v.rejection_info.reason ?? null, recommendation: v.rejection_info.recommendation ?? null }
        : null,
      disableDate: v.disable_info?.disable_date ?? null,
    },
  ];
}

export function templateQualityItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(templateQualityValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [
    {
      kind: 'template_quality',
      ...baseOf(ctx),
      ...templateRef(v),
      previousScore: v.previous_quality_score ?? null,
      newScore: v.new_quality_score,
    },
  ];
}

export function templateCategoryItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(templateCategoryValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [
    {
      kind: 'template_category',
      ...baseOf(ctx),
      ...templateRef(v),
      previousCategory: v.previous_category ?? null,
      newCategory: v.new_category,
      correctCategory: v.correct_category ?? null,
      effectiveAt: v.category_update_timestamp ?? null,
    },
  ];
}

export function templateComponentsItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(templateComponentsValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [{ kind: 'template_components', ...baseOf(ctx), ...templateRef(v) }];
}

export function phoneQualityItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(phoneQualityValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [
    {
      kind: 'phone_quality',
      ...baseOf(ctx),
      displayPhoneNumber: v.display_phone_number ?? null,
      event: v.event,
      currentLimit: v.current_limit ?? null,
      oldLimit: v.old_limit ?? null,
      maxDailyConversations: v.max_daily_conversations_per_business ?? null,
    },
  ];
}

export function accountUpdateItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(accountUpdateValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  const { event: _event, ...details } = isRecord(value) ? value : {};
  return [
    {
      kind: 'account_update',
      ...baseOf(ctx),
      event: v.event,
      restrictions: (v.restriction_info ?? []).map((r) => ({
        type: r.restriction_type ?? null,
        expiresAt: r.expiration ?? null,
        remediation: r.remediation ?? null,
      })),
      violationType: v.violation_info?.violation_type ?? null,
      banState: v.ban_info?.waba_ban_state ?? null,
      banDate: v.ban_info?.waba_ban_date ?? null,
      details,
    },
  ];
}

export function businessCapabilityItems(value: unknown, ctx: ChangeContext): WebhookItem[] {
  const v = parseLenient(businessCapabilityValueSchema, value, ctx.path, ctx.problems);
  if (v === undefined) return [];
  return [
    {
      kind: 'business_capability',
      ...baseOf(ctx),
      maxDailyConversations: v.max_daily_conversations_per_business ?? null,
      maxDailyConversationsPerPhone: v.max_daily_conversation_per_phone ?? null,
      maxPhoneNumbers: v.max_phone_numbers_per_business ?? null,
    },
  ];
}
