import { DAY, type Millis } from '../../core/time.js';
import type { SimulatorConfig } from './config.js';
import { isUsNumber, type SimUser } from './population.js';

/** What WhatsApp does with one marketing template from our business to one user. */
export type MarketingVerdict =
  | { kind: 'deliver'; /** false inside an open customer-service window or an uncapped region */ counted: boolean }
  | { kind: 'fail'; code: 131049; why: 'us_pause' | 'cap' | 'retry_inside_penalty' }
  | { kind: 'fail'; code: 130472 | 131050 };

/**
 * The per-user marketing cap. Every business's delivered marketing counts toward one rolling
 * window per user (other businesses' traffic is generated lazily from the user's own stream),
 * the cap is smaller for users who read little, and after a cap our business is locked out for
 * `retryPenaltyMs`, each attempt inside that time starting it again.
 */
export function marketingVerdict(user: SimUser, now: Millis, config: SimulatorConfig): MarketingVerdict {
  const s = user.state;
  if (s.stoppedMarketing) return { kind: 'fail', code: 131050 };
  if (config.cap.usMarketingPause && isUsNumber(user)) return { kind: 'fail', code: 131049, why: 'us_pause' };
  if (s.windowOpenUntil > now) return { kind: 'deliver', counted: false };
  if (user.experiment) return { kind: 'fail', code: 130472 };
  if (config.cap.uncappedRegions.includes(user.country)) return { kind: 'deliver', counted: false };

  if (s.lastCapAt !== null && now - s.lastCapAt < config.cap.retryPenaltyMs) {
    s.lastCapAt = now;
    return { kind: 'fail', code: 131049, why: 'retry_inside_penalty' };
  }
  catchUpOtherBusinesses(user, now, config);
  if (s.marketingLog.length >= user.capLimit) {
    s.lastCapAt = now;
    return { kind: 'fail', code: 131049, why: 'cap' };
  }
  s.marketingLog.push(now);
  return { kind: 'deliver', counted: true };
}

/** Delivered marketing currently counted against the user's cap (after catching up to `now`). */
export function marketingInWindow(user: SimUser, now: Millis, config: SimulatorConfig): number {
  if (config.cap.uncappedRegions.includes(user.country)) return 0;
  catchUpOtherBusinesses(user, now, config);
  return user.state.marketingLog.length;
}

/**
 * Plays other businesses' marketing up to `now` as a Poisson process; each arrival is itself
 * subject to the cap, so a full inbox stays full without growing.
 */
function catchUpOtherBusinesses(user: SimUser, now: Millis, config: SimulatorConfig): void {
  const s = user.state;
  const meanGap = DAY / Math.max(user.otherMarketingPerDay, 1e-6);
  for (;;) {
    // The next arrival is drawn once and kept, so catching up in small or large steps gives the same inbox.
    if (s.nextOtherAt > now) break;
    const at = s.nextOtherAt;
    prune(user, at, config.cap.windowMs);
    if (s.marketingLog.length < user.capLimit) s.marketingLog.push(at);
    s.nextOtherAt = at + Math.max(1, Math.round(user.capRng.exponential(meanGap)));
  }
  prune(user, now, config.cap.windowMs);
}

function prune(user: SimUser, now: Millis, windowMs: Millis): void {
  const log = user.state.marketingLog;
  let drop = 0;
  while (drop < log.length && (log[drop] as number) <= now - windowMs) drop++;
  if (drop > 0) log.splice(0, drop);
}
