import type { Cause, ContactState } from './contact-state.js';
import type { Millis } from './time.js';

/** Facts derived from the stored state; kept derived so arrival order never matters. */

export function marketingStop(state: ContactState): Cause | null {
  const { stopped, resumed } = state.marketing;
  if (stopped === null) return null;
  return resumed !== null && resumed.at > stopped.at ? null : stopped;
}

/** 131026 holds until anything later proves the number reaches a person. */
export function unreachableCause(state: ContactState): Cause | null {
  const u = state.unreachable;
  if (u === null) return null;
  return state.lastReachedAt !== null && state.lastReachedAt > u.at ? null : u;
}

export function customerServiceWindowOpen(state: ContactState, now: Millis): boolean {
  return state.windowOpenUntil !== null && now < state.windowOpenUntil;
}

/** Either window lets marketing through without counting toward Meta's per-user cap. */
export function anyWindowOpen(state: ContactState, now: Millis): boolean {
  return customerServiceWindowOpen(state, now) || (state.freeEntryUntil !== null && now < state.freeEntryUntil);
}

export function windowCloses(state: ContactState): Millis | null {
  const a = state.windowOpenUntil;
  const b = state.freeEntryUntil;
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/** When our own frequency cap allows the next marketing send, or null if it allows one now. */
export function frequencyCapFreesAt(state: ContactState, now: Millis, cap: { max: number; windowMs: Millis } | null): Millis | null {
  if (cap === null || cap.max <= 0) return null;
  const inWindow = state.marketing.recentSends.map((s) => s.at).filter((t) => t > now - cap.windowMs && t <= now);
  if (inWindow.length < cap.max) return null;
  const oldestThatMatters = inWindow[inWindow.length - cap.max] ?? now;
  return oldestThatMatters + cap.windowMs;
}
