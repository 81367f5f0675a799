import type { ParameterMapping, SlotSource } from '../../core/template-slot-values.js';
import { CliFailure, EXIT } from './exit-codes.js';

const FORMS = 'attribute:NAME, text:VALUE, link:URL or media:ID';

/** Repeated option values collect into a list (commander's reducer). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function split(flag: string, option: string): [string, string] {
  const eq = flag.indexOf('=');
  if (eq <= 0) throw new CliFailure(`${option} ${JSON.stringify(flag)}: expected KEY=…, e.g. body.1=attribute:first_name`, EXIT.usage);
  return [flag.slice(0, eq).trim(), flag.slice(eq + 1)];
}

function source(key: string, spec: string): SlotSource {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? '' : spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  switch (kind) {
    case 'attribute':
    case 'attr':
      return { attribute: rest };
    case 'text':
      return { value: rest };
    case 'link':
      return { link: rest };
    case 'media':
      return { mediaId: rest };
    default:
      throw new CliFailure(`--param ${key}=${spec}: say where the value comes from: ${FORMS}`, EXIT.usage);
  }
}

/**
 * `--param body.1=attribute:first_name --param button.0=text:SAVE15 --fallback body.1=there` as the
 * mapping `createCampaign` and the one-off sends take.
 */
export function parseParameterFlags(params: readonly string[] = [], fallbacks: readonly string[] = []): ParameterMapping {
  const mapping: Record<string, SlotSource> = {};
  for (const flag of params) {
    const [key, spec] = split(flag, '--param');
    if (key in mapping) throw new CliFailure(`--param ${key} is given twice`, EXIT.usage);
    mapping[key] = source(key, spec);
  }
  for (const flag of fallbacks) {
    const [key, text] = split(flag, '--fallback');
    const s = mapping[key];
    if (s === undefined || !('attribute' in s))
      throw new CliFailure(`--fallback ${key}: a fallback goes with --param ${key}=attribute:NAME`, EXIT.usage);
    mapping[key] = { ...s, fallback: text };
  }
  return mapping;
}
