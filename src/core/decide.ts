import type { ContactState } from './contact-state.js';
import {
  anyWindowOpen,
  customerServiceWindowOpen,
  frequencyCapFreesAt,
  marketingStop,
  unreachableCause,
  windowCloses,
} from './contact-facts.js';
import type { Decision, MessageTiming, SendIntent, SendPath, SendReason } from './decision.js';
import { wallClock } from './local-time.js';
import type { Policy } from './policy.js';
import { openStretch, spreadTurn } from './send-spread.js';
import { localDateTimeText, localTimeText, nextOpening, type SendWindow } from './send-window.js';
import { DAY, durationText, iso, MINUTE, type Millis } from './time.js';

/**
 * May this contact receive this message now, through which path, and if not, why and until when.
 * Pure and allocation-light: it runs once per outbox row. Utility, authentication and service
 * decisions never read marketing-only facts.
 */
export function decide(state: ContactState, intent: SendIntent, now: Millis, policy: Policy): Decision {
  const decision = decideNow(state, intent, now, policy);
  const timing = intent.timing ?? null;
  return timing === null ? decision : timed(decision, timing, now);
}

/**
 * The recipient's local time, applied to what was decided: a send outside the window waits for its
 * next opening, a wait ends at an opening (a cap retry's gap is a minimum, then the window), a
 * campaign that spreads its sends holds each row until its turn after the opening, and a message that
 * cannot go before its `notAfter` ends expired instead of going late.
 */
function timed(decision: Decision, timing: MessageTiming, now: Millis): Decision {
  if (decision.kind === 'skip' || decision.kind === 'hold') return decision;
  const { window, zone, notAfter, spread } = timing;
  let result = decision;
  if (window !== null || spread !== null) {
    const from = decision.kind === 'send' ? now : decision.until;
    let opening = from;
    if (window !== null) {
      const next = nextOpening(window, zone, from);
      if (next === null) return skip('expired', `The send window (${windowText(window)}, ${zone}) never opens: no days are allowed.`);
      opening = next;
    }
    const goes =
      spread === null ? opening : spreadTurn(spread, opening, window === null ? ALWAYS_OPEN : openStretch(window, zone, opening), notAfter);
    if (goes > from) result = waitFor(decision, timing, now, opening, goes);
  }
  if (notAfter === null) return result;
  const goesAt = result.kind === 'send' ? now : result.until;
  if (goesAt <= notAfter) return result;
  return skip(
    'expired',
    `It could not go before ${iso(notAfter)}, its end time (${result.kind === 'defer' ? result.reason : 'late'}); it ends instead of going late.`,
  );
}

const ALWAYS_OPEN = { opens: -Infinity, closes: Infinity };

/** A send or a wait moved on to `goes`: the window's next `opening`, and the row's turn in the spread after it. */
function waitFor(
  decision: Extract<Decision, { kind: 'send' | 'defer' }>,
  timing: MessageTiming,
  now: Millis,
  opening: Millis,
  goes: Millis,
): Extract<Decision, { kind: 'defer' }> {
  const { window, zone, spread } = timing;
  const turn = spread !== null && goes > opening ? spreadText(timing, spread.overMs, goes) : '';
  if (decision.kind === 'defer') {
    const open =
      window !== null && opening > decision.until
        ? ` Then it waits for the recipient's send window (${windowText(window)}, ${zone}): ${iso(opening)}.`
        : '';
    return { ...decision, until: goes, explanation: `${decision.explanation}${open}${turn === '' ? '' : ` Then ${turn}.`}` };
  }
  if (window !== null && opening > now) {
    const source = timing.windowSource === 'quiet_hours' ? 'inside your quiet hours' : "outside the campaign's send window";
    const at =
      turn === ''
        ? `it goes at ${localTimeText(localMinute(zone, opening))} their time (${iso(opening)})`
        : `it waits for the window to open at ${localTimeText(localMinute(zone, opening))} their time; then ${turn}`;
    return {
      kind: 'defer',
      until: goes,
      reason: 'outside_send_window',
      explanation: `It is ${localTimeText(localMinute(zone, now))} for the recipient (${zone}), ${source} (${windowText(window)}); ${at}.`,
    };
  }
  return { kind: 'defer', until: goes, reason: 'spread_in_window', explanation: `Its turn has not come: ${turn}.` };
}

/** The row's turn, said in the recipient's local time. */
function spreadText(timing: MessageTiming, overMs: Millis, goes: Millis): string {
  const from = timing.window === null ? 'after the campaign queued it' : 'after each opening of the send window';
  return `this campaign spreads its sends over ${durationText(overMs)} ${from}, and this recipient's turn is ${localTimeText(localMinute(timing.zone, goes))} their time (${timing.zone}), ${iso(goes)}`;
}

/** `08:00–21:00 on Mon, Tue`; kept per window object, as a campaign's rows share theirs. */
function windowText(w: SendWindow): string {
  let text = windowTexts.get(w);
  if (text === undefined) {
    const hours = w.from === w.to ? 'all day' : `${localTimeText(w.from)}–${localTimeText(w.to)}`;
    text = w.days === null ? hours : `${hours} on ${w.days.map((d) => WEEKDAYS[d - 1] ?? '?').join(', ')}`;
    windowTexts.set(w, text);
  }
  return text;
}

const windowTexts = new WeakMap<SendWindow, string>();

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const localMinute = (zone: string, at: Millis): number => Math.floor((((wallClock(zone, at) % DAY) + DAY) % DAY) / MINUTE);

function decideNow(state: ContactState, intent: SendIntent, now: Millis, policy: Policy): Decision {
  const { category } = intent;
  const consent = state.consent[category];
  if (consent.status === 'revoked') {
    return skip(
      'consent_revoked',
      `The contact revoked ${category} consent${consent.at === null ? '' : ` on ${iso(consent.at)}`}${consent.source ? ` (${consent.source})` : ''}; Pacer never overrides that.`,
    );
  }
  if (policy.consentRequired[category] && consent.status !== 'granted') {
    return skip('no_consent', `There is no recorded opt-in for ${category} messages; record consent before sending.`);
  }

  if (category === 'authentication' && intent.addressedBy === 'user_id') {
    return skip(
      'needs_phone_number',
      'Authentication templates need the phone number: Meta refuses them to a business-scoped user id (error 131062), and this contact is known only by one (a username user). Import or learn the number to send it.',
    );
  }

  const badValue = intent.parameterProblem;
  if (badValue != null) {
    return skip(
      badValue.reason,
      `This recipient's template values cannot be sent (${badValue.detail}); Meta would refuse the message. Fix the contact's data and send again.`,
    );
  }

  let reason: SendReason = 'eligible';
  const unreachable = unreachableCause(state);
  if (unreachable !== null) {
    const probeAt = unreachable.at + policy.unreachableQuietMs;
    if (now < probeAt) {
      return skip(
        'unreachable',
        `WhatsApp could not deliver to this number (code ${unreachable.detail ?? '131026'} on ${iso(unreachable.at)}); no category is sent until it writes in or ${iso(probeAt)}, when Pacer tries once more.`,
        probeAt,
      );
    }
    reason = 'probe_after_quiet';
  }

  if (intent.kind === 'freeform' && !customerServiceWindowOpen(state, now)) {
    return skip(
      'window_closed',
      'Free-form messages need the customer-service window, which is closed (no message from the contact in the last 24 h); send an approved template instead.',
    );
  }

  const template = intent.template;
  if (template !== null && template.status === 'paused') {
    // Meta pauses for 3 h, then 6 h; with no end announced, look again later rather than drop it.
    const until = template.pausedUntil !== null && template.pausedUntil > now ? template.pausedUntil : now + policy.blockedRecheckMs;
    return {
      kind: 'defer',
      until,
      reason: 'template_paused',
      explanation: `Meta paused this template for low quality; Pacer looks again at ${iso(until)}.`,
    };
  }
  if (template !== null && template.status !== 'approved' && template.status !== 'unknown') {
    return skip('template_unavailable', `The template is ${template.status}; Meta would refuse it. Fix or replace the template.`);
  }

  const sender = intent.sender;
  if (sender.state === 'stopped') {
    // Not a skip: the message is still wanted once the number is fixed; the campaign breaker pauses the campaign.
    const until = now + policy.blockedRecheckMs;
    return {
      kind: 'defer',
      until,
      reason: 'sender_stopped',
      explanation: `The sender number is stopped until an operator acts (${sender.why}); Pacer looks again at ${iso(until)}.`,
    };
  }
  if (sender.state === 'throttled' && sender.until > now) {
    return {
      kind: 'defer',
      until: sender.until,
      reason: 'sender_throttled',
      explanation: `The sender number is backing off after a rate limit until ${iso(sender.until)}.`,
    };
  }

  const decision = category !== 'marketing' ? send('cloud', reason, category) : decideMarketing(state, intent, now, policy, reason);
  if (decision.kind !== 'send') return decision;
  // Number-wide pacing, checked on what would go: the pair rate, then the limit of new people
  // (which only counts conversations started outside a window).
  const spacing = pairRateDefer(intent, now, policy);
  if (spacing !== null) return spacing;
  if (intent.kind !== 'template' || anyWindowOpen(state, now)) return decision;
  return messagingLimitDefer(intent) ?? decision;
}

function pairRateDefer(intent: SendIntent, now: Millis, policy: Policy): Decision | null {
  const last = intent.lastSentToContactAt ?? null;
  if (last === null || now - last >= policy.pairRateGapMs) return null;
  const until = last + policy.pairRateGapMs;
  return {
    kind: 'defer',
    until,
    reason: 'pair_rate',
    explanation: `This number sent this person a message at ${iso(last)}; WhatsApp allows about one message per ${policy.pairRateGapMs / 1000} s to the same person, so this one goes at ${iso(until)}.`,
  };
}

function messagingLimitDefer(intent: SendIntent): Decision | null {
  const limit = intent.messagingLimit ?? null;
  if (limit === null || limit.contactCounted || limit.used < limit.perDay) return null;
  return {
    kind: 'defer',
    until: limit.nextSlotAt,
    reason: 'messaging_limit',
    explanation: `The sender number may start conversations with ${limit.perDay.toLocaleString('en-US')} different people per rolling 24 h (its messaging limit), and has reached ${limit.used.toLocaleString('en-US')}; the next place frees at ${iso(limit.nextSlotAt)}. A larger audience is spread over several days.`,
  };
}

function decideMarketing(state: ContactState, intent: SendIntent, now: Millis, policy: Policy, baseReason: SendReason): Decision {
  if (policy.usMarketingPause && intent.recipientRegion === 'US') {
    return skip(
      'us_marketing_pause',
      'Meta does not deliver marketing templates to US (+1) numbers while its pause stands (since April 2025); utility and service messages still go.',
    );
  }
  const stop = marketingStop(state);
  if (stop !== null) {
    return skip(
      'marketing_stopped',
      `The contact stopped marketing from this business on ${iso(stop.at)} (${stop.detail ?? stop.type}); only a resume lifts it. Utility and service messages still go.`,
    );
  }
  if (intent.capAttempts >= policy.capRetry.maxAttemptsPerMessage) {
    return skip(
      'capped_exhausted',
      `This message hit WhatsApp's per-user marketing cap ${intent.capAttempts} times, the most this policy allows; the contact stays eligible for later campaigns.`,
    );
  }

  const windowOpen = anyWindowOpen(state, now);
  let reason = baseReason;
  const experiment = state.marketing.experiment;
  if (experiment !== null && !windowOpen) {
    const recheckAt = policy.experimentRecheckMs === null ? null : experiment.at + policy.experimentRecheckMs;
    if (recheckAt === null || now < recheckAt) {
      return {
        kind: 'hold',
        reason: 'experiment_group',
        explanation: `Meta placed this contact in its marketing experiment group (130472 on ${iso(experiment.at)}): marketing goes only while they have an open conversation window. Held until they write in${recheckAt === null ? '' : ` (or re-checked after ${iso(recheckAt)})`}.`,
      };
    }
    reason = 'probe_after_quiet';
  }

  const coolOff = state.marketing.coolOffUntil;
  if (coolOff !== null && now < coolOff) {
    if (!windowOpen) {
      return {
        kind: 'defer',
        until: coolOff,
        reason: 'marketing_cool_off',
        explanation: `WhatsApp's per-user marketing cap stopped a message on ${iso(state.marketing.lastCap?.at ?? now)} (131049). It lifts by itself; the next marketing attempt waits until ${iso(coolOff)}. Utility and service messages are unaffected.`,
      };
    }
    reason = 'inside_window';
  } else if (windowOpen && reason === 'eligible') {
    reason = 'inside_window';
  }

  const cap = policy.frequencyCap;
  const freesAt = frequencyCapFreesAt(state, now, cap);
  if (freesAt !== null && cap !== null) {
    return {
      kind: 'defer',
      until: freesAt,
      reason: 'frequency_cap',
      explanation: `This contact already got ${cap.max} marketing message${cap.max === 1 ? '' : 's'} in the last ${durationText(cap.windowMs)} (your frequency cap); deferred by your frequency cap until ${capEnd(intent, freesAt)}.`,
    };
  }

  const path = marketingPath(state, intent, policy);
  if (path === 'marketing_messages' && policy.marketingPath === 'marketing_messages_after_cap') reason = 'after_cap_marketing_api';
  const closes = windowCloses(state);
  return send(path, reason, 'marketing', reason === 'inside_window' && closes !== null ? closes : null);
}

/** When the cap frees, on the recipient's clock when their zone is known: `Tue 8 Dec 09:00 local (Europe/London), <ISO>`. */
function capEnd(intent: SendIntent, at: Millis): string {
  const zone = intent.timing?.zone;
  return zone === undefined ? iso(at) : `${localDateTimeText(zone, at)} local (${zone}), ${iso(at)}`;
}

function marketingPath(state: ContactState, intent: SendIntent, policy: Policy): SendPath {
  if (intent.marketingApiRefused) return 'cloud';
  switch (policy.marketingPath) {
    case 'cloud':
      return 'cloud';
    case 'marketing_messages':
      return 'marketing_messages';
    case 'marketing_messages_after_cap':
      return state.marketing.lastCap !== null && !state.marketing.marketingApiTriedAfterCap ? 'marketing_messages' : 'cloud';
  }
}

function send(path: SendPath, reason: SendReason, category: string, windowCloses: Millis | null = null): Decision {
  const via = path === 'cloud' ? 'the Cloud API' : 'the Marketing Messages API';
  return { kind: 'send', path, reason, explanation: sendSentence(reason, category, via, windowCloses) };
}

function sendSentence(reason: SendReason, category: string, via: string, windowCloses: Millis | null): string {
  switch (reason) {
    case 'eligible':
      return `Nothing stands in the way of this ${category} message; it goes through ${via}.`;
    case 'inside_window':
      return `The contact's conversation window is open${windowCloses === null ? '' : ` until ${iso(windowCloses)}`}, so this ${category} message goes now through ${via} and does not count toward WhatsApp's per-user marketing cap.`;
    case 'probe_after_quiet':
      return `The quiet period after the last failure has passed; Pacer tries this ${category} message once more through ${via}.`;
    case 'after_cap_marketing_api':
      return "After a per-user cap, the next marketing attempt goes once through the Marketing Messages API, which keeps retrying delivery on Meta's side.";
  }
}

function skip(reason: Extract<Decision, { kind: 'skip' }>['reason'], explanation: string, until: Millis | null = null): Decision {
  return { kind: 'skip', reason, explanation, until };
}
