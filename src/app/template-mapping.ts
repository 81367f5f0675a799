import { z } from 'zod';
import type { TemplateCategory, TemplateDefinition } from '../core/template-definition.js';
import { parseTemplateComponents } from '../core/template-definition.js';
import type { ParameterMapping } from '../core/template-slot-values.js';
import type { Template } from '../ports/store.js';

const text = z.string().max(32768);
const sourceSchema = z.union(
  [
    z.strictObject({ attribute: z.string().min(1).max(200), fallback: text.optional() }),
    z.strictObject({ value: text }),
    z.strictObject({ link: z.string().min(1).max(2000), filename: z.string().min(1).max(240).optional() }),
    z.strictObject({ mediaId: z.string().min(1).max(64), filename: z.string().min(1).max(240).optional() }),
  ],
  { error: 'a value comes from {attribute, fallback?}, {value}, {link, filename?} or {mediaId, filename?}' },
);

/** Where each template value comes from, as the REST API, the CLI and the store carry it. */
export const parameterMappingSchema = z
  .record(z.string().min(1).max(100), sourceSchema)
  .describe(
    'slot key (`body.1`, `header`, `button.0`, or a bare placeholder name) → {attribute, fallback?} | {value} | {link} | {mediaId}',
  );

/** A stored mapping read back; anything else in the column is a bug, said with the campaign's id. */
export function readMapping(json: unknown, where: string): ParameterMapping {
  if (json === null || json === undefined) return {};
  const parsed = parameterMappingSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${where}: stored parameters are not a mapping: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data as ParameterMapping;
}

export type TemplateShape = { kind: 'known'; definition: TemplateDefinition; category: TemplateCategory } | { kind: 'unknown' };

/**
 * What a template needs, from the components its last sync stored; `unknown` for one registered
 * offline, which Pacer sends without values as it was registered.
 */
export function templateShape(template: Template): TemplateShape {
  if (template.components === null || template.category === 'service') return { kind: 'unknown' };
  const parsed = parseTemplateComponents(template.components, template.parameterFormat ?? 'positional', template.category);
  if (!parsed.ok) throw new Error(`template ${template.name}/${template.language}: stored components unreadable: ${parsed.reason}`);
  return {
    kind: 'known',
    category: template.category,
    definition: { ...parsed.content, subCategory: template.subCategory, messageSendTtlSeconds: null },
  };
}

const SHAPES = new Map<string, TemplateShape>();

/** `templateShape`, parsed once per stored version of a template: the dispatcher asks for every row. */
export function cachedTemplateShape(template: Template): TemplateShape {
  const key = `${template.id}:${template.updatedAt}:${template.syncedAt ?? ''}`;
  let shape = SHAPES.get(key);
  if (shape === undefined) {
    if (SHAPES.size >= 256) SHAPES.clear();
    shape = templateShape(template);
    SHAPES.set(key, shape);
  }
  return shape;
}
