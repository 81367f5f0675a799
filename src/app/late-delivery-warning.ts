import type { MarketingPath } from '../core/policy.js';
import { effectiveTtlMs, secondsText, TTL_RANGES } from '../core/template-ttl.js';
import { DAY, durationText, HOUR, MINUTE, SECOND, type Millis } from '../core/time.js';
import type { Template } from '../ports/store.js';

/** `43200` → `12h`: a duration as `--ttl` takes it. */
function ttlFlag(seconds: number): string {
  const ms = seconds * SECOND;
  if (ms % DAY === 0) return `${ms / DAY}d`;
  if (ms % HOUR === 0) return `${ms / HOUR}h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE}m`;
  return `${seconds}s`;
}

/**
 * A campaign's maximum delay only stops Pacer sending late: Meta keeps retrying a message it cannot
 * deliver (a phone that is off) for the template's time-to-live, on the Marketing Messages API, and
 * for 30 days on /messages whatever the template says. When that is longer than `--max-delay`, the
 * sentence to show at creation, naming the time-to-live and the command that shortens it; null when
 * the template's messages cannot land later than the maximum delay allows.
 */
export function lateDeliveryWarning(template: Template, maxDelayMs: Millis | undefined, path: MarketingPath): string | null {
  if (template.category !== 'marketing' || maxDelayMs === undefined) return null;
  const label = `${template.name} (${template.language})`;
  const range = TTL_RANGES.marketing;
  const suggested = Math.min(Math.max(Math.ceil(maxDelayMs / SECOND), range.minSeconds), range.maxSeconds);
  const command = `pacer template ttl ${template.name} --language ${template.language} --ttl ${ttlFlag(suggested)}`;
  const shortest =
    maxDelayMs < range.minSeconds * SECOND ? ` (${secondsText(range.minSeconds)} is the shortest Meta allows for marketing)` : '';
  const limit = `--max-delay ${durationText(maxDelayMs)} keeps Pacer from sending late`;
  const cloud = `on /messages Meta retries a marketing template it cannot deliver for 30 days, whatever the template says`;
  if (path === 'cloud')
    return `${limit}, but ${cloud} (PACER_MARKETING_PATH=cloud): a message to a phone that is off may arrive up to 30 days after it was sent. Only the Marketing Messages API takes a shorter time-to-live: set PACER_MARKETING_PATH=marketing_messages and shorten ${label}'s with: ${command}${shortest}`;
  const mmTtl = effectiveTtlMs('marketing', template.sendTtlSeconds, 'marketing_messages');
  const mmLate = mmTtl > maxDelayMs;
  if (!mmLate && path === 'marketing_messages') return null;
  const ttl = template.sendTtlSeconds === null ? "30 days (Meta's default)" : secondsText(template.sendTtlSeconds);
  const mm = `on the Marketing Messages API Meta retries a message it cannot deliver for ${label}'s time-to-live, ${ttl}`;
  if (path === 'marketing_messages')
    return `${limit}, but ${mm}: a message to a phone that is off may arrive that long after it was sent. Shorten it with: ${command}${shortest}`;
  // After a cap only: the first attempt goes through /messages.
  return `${limit}, but its first attempts go through /messages (PACER_MARKETING_PATH=marketing_messages_after_cap), where Meta retries a marketing template it cannot deliver for 30 days whatever the template says${mmLate ? `; after a cap, ${mm}. Shorten that with: ${command}${shortest}` : '.'}`;
}
