import { DEFAULT_SIMULATOR_CONFIG, type SimTemplateConfig } from '../src/adapters/simulator/index.js';

/**
 * The simulator's default templates (same names, languages, categories, relevance and TTL) with
 * bodies that have no placeholders, no media header and no buttons that need a value: they can be
 * sent without components. For tests whose subject is not template parameters, since the
 * simulator refuses a send that leaves a template's parameters out, as Meta does.
 */
export function plainTemplates(): SimTemplateConfig[] {
  return DEFAULT_SIMULATOR_CONFIG.templates.map((t) => ({
    name: t.name,
    language: t.language,
    category: t.category,
    relevance: t.relevance,
    ...(t.subCategory === undefined ? {} : { subCategory: t.subCategory }),
    ...(t.messageSendTtlSeconds === undefined ? {} : { messageSendTtlSeconds: t.messageSendTtlSeconds }),
    components: [{ type: 'BODY', text: `A message from the ${t.name.replace(/_/g, ' ')} template.` }],
  }));
}
