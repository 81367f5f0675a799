import { resolveAccounts } from './accounts-config.js';
import { DEFAULT_SIMULATOR_CONFIG, type SimulatorConfig, type SimulatorConfigInput } from './config.js';

/**
 * Defaults overlaid with `input` (objects merge, arrays and scalars replace), then checked. The
 * top-level identity fields and `accounts` always agree: either is derived from the other.
 */
export function resolveSimulatorConfig(input: SimulatorConfigInput = {}): SimulatorConfig {
  const merged = merge(DEFAULT_SIMULATOR_CONFIG, input) as SimulatorConfig;
  const config = resolveAccounts(merged, input);
  validate(config);
  return config;
}

function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validate(c: SimulatorConfig): void {
  const fail = (path: string, what: string): never => {
    throw new Error(`simulator config: ${path} ${what}`);
  };
  if (!Number.isInteger(c.seed)) fail('seed', `must be an integer, got ${c.seed}`);
  if (!Number.isInteger(c.population.size) || c.population.size < 1) fail('population.size', 'must be a positive integer');
  for (const [path, p] of Object.entries({
    'population.notOnWhatsAppRate': c.population.notOnWhatsAppRate,
    'population.experimentRate': c.population.experimentRate,
    'population.stoppedRate': c.population.stoppedRate,
    'population.usernameRate': c.population.usernameRate,
    'webhooks.batchRate': c.webhooks.batchRate,
    'webhooks.duplicateRate': c.webhooks.duplicateRate,
    'webhooks.outOfOrderRate': c.webhooks.outOfOrderRate,
    'reactions.offline.rate': c.reactions.offline.rate,
  })) {
    if (!(p >= 0 && p <= 1)) fail(path, `must be between 0 and 1, got ${p}`);
  }
  if (c.population.countryMix !== 'drawn' && c.population.countryMix !== 'exact') {
    fail('population.countryMix', `must be "drawn" or "exact", got ${JSON.stringify(c.population.countryMix)}`);
  }
  if (c.population.withheldPhone !== 'omitted' && c.population.withheldPhone !== 'empty') {
    fail('population.withheldPhone', `must be "omitted" or "empty", got ${JSON.stringify(c.population.withheldPhone)}`);
  }
  const night = c.reactions.night;
  for (const key of ['fromHour', 'toHour'] as const) {
    const h = night[key];
    if (!(Number.isInteger(h) && h >= 0 && h <= 23)) fail(`reactions.night.${key}`, `must be a whole hour from 0 to 23, got ${h}`);
  }
  for (const key of ['readDelayFactor', 'blockFactor', 'reportFactor'] as const) {
    const f = night[key];
    if (!(Number.isFinite(f) && f > 0)) fail(`reactions.night.${key}`, `must be a number above 0, got ${f}`);
  }
  const away = c.reactions.offline.forMs;
  if (!(away.min > 0 && away.max >= away.min)) fail('reactions.offline.forMs', `needs 0 < min <= max, got ${away.min}..${away.max}`);
  if (c.cap.minPerWindow < 0 || c.cap.maxPerWindow < c.cap.minPerWindow) fail('cap', 'needs 0 <= minPerWindow <= maxPerWindow');
  if (!(c.rateLimits.throughputMps > 0)) fail('rateLimits.throughputMps', 'must be > 0');
  if (!(c.rateLimits.pairIntervalMs > 0)) fail('rateLimits.pairIntervalMs', 'must be > 0');
  const names = new Set<string>();
  c.templates.forEach((t, i) => {
    if (t.name === '') fail(`templates[${i}].name`, 'is empty');
    if (names.has(`${t.name}/${t.language}`)) fail(`templates[${i}]`, `duplicates ${t.name}/${t.language}`);
    names.add(`${t.name}/${t.language}`);
    if (!(t.relevance >= 0 && t.relevance <= 1)) fail(`templates[${i}].relevance`, 'must be between 0 and 1');
  });
  if (c.callbackUrl !== null && !/^https?:\/\//.test(c.callbackUrl)) fail('callbackUrl', 'must be an http(s) URL');
  if (c.quality.template.pauseMs.length === 0) fail('quality.template.pauseMs', 'needs at least one pause length');
}
