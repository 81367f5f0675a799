import type { Logger } from '../ports/logger.js';
import type { EffectsApplied } from './send-effects.js';

/**
 * Reports, once committed, what failures changed that stops sending: a number that cannot send
 * and the campaigns paused. At warn, the default level: nobody should learn of it from a stalled
 * campaign. Fields carry the phone number id (Meta's id, not a phone number) and the reason only.
 */
export function logEffects(logger: Logger, effects: readonly EffectsApplied[]): void {
  const stopped = new Map<string, string>();
  const paused = new Map<number, string>();
  for (const e of effects) {
    if (e.senderStopped !== null) stopped.set(e.senderStopped.phoneNumberId, e.senderStopped.reason);
    for (const p of e.campaignsPaused) paused.set(p.campaignId, p.reason);
  }
  for (const [phoneNumberId, reason] of stopped) {
    logger.warn('sender cannot send: stopped until an operator fixes it', { phoneNumberId, reason });
  }
  for (const [campaignId, reason] of paused) logger.warn('campaign paused', { campaignId, reason });
}
