import type { Category } from '../../core/category.js';
import type { TemplateStatus } from '../../core/decision.js';
import type { ParameterFormat } from '../../core/template-definition.js';
import type { Millis } from '../../core/time.js';
import type { JsonValue } from '../json.js';

export interface TemplateInput {
  name: string;
  language: string;
  category: Category;
  status: TemplateStatus;
  quality: string | null;
  pausedUntil: Millis | null;
}

/** A template as a sync from the WhatsApp Business Account found it. */
export interface SyncedTemplateInput extends TemplateInput {
  metaId: string;
  subCategory: string | null;
  parameterFormat: ParameterFormat;
  /** Meta's `components`, exactly as listed. */
  components: JsonValue[];
  /** Meta's `message_send_ttl_seconds` (-1: 30 days); null or absent when Meta lists none (its default for the category). */
  sendTtlSeconds?: number | null;
}

export interface Template extends TemplateInput {
  id: number;
  updatedAt: Millis;
  /** What the last sync saw; all null for a template only registered offline. */
  metaId: string | null;
  subCategory: string | null;
  parameterFormat: ParameterFormat | null;
  components: JsonValue[] | null;
  /** The time-to-live Meta listed (`message_send_ttl_seconds`); null: none listed, or never synced. */
  sendTtlSeconds: number | null;
  syncedAt: Millis | null;
}

/** Message templates, by name and language, with the status and quality Meta gave them. */
export interface TemplateStore {
  /** Status, category and quality only; what a sync stored stays. */
  upsertTemplates(templates: readonly TemplateInput[], now: Millis): Promise<number[]>;
  /** Everything Meta lists about each template, marked synced at `now`. */
  upsertSyncedTemplates(templates: readonly SyncedTemplateInput[], now: Millis): Promise<number[]>;
  getTemplate(name: string, language: string): Promise<Template | null>;
  getTemplateById(id: number): Promise<Template | null>;
  listTemplates(): Promise<Template[]>;
}
