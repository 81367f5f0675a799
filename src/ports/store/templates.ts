import type { Category } from '../../core/category.js';
import type { TemplateStatus } from '../../core/decision.js';
import type { Millis } from '../../core/time.js';

export interface TemplateInput {
  name: string;
  language: string;
  category: Category;
  status: TemplateStatus;
  quality: string | null;
  pausedUntil: Millis | null;
}
export interface Template extends TemplateInput {
  id: number;
  updatedAt: Millis;
}

/** Message templates, by name and language, with the status and quality Meta gave them. */
export interface TemplateStore {
  upsertTemplates(templates: readonly TemplateInput[], now: Millis): Promise<number[]>;
  getTemplate(name: string, language: string): Promise<Template | null>;
  getTemplateById(id: number): Promise<Template | null>;
  listTemplates(): Promise<Template[]>;
}
