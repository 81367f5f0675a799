import { classifyCode, findErrorByCode } from './error-catalogue/index.js';
import type { ErrorClass } from './error-class.js';
import { describeFacts, pct, share, type Evidence, type EvidenceTopic } from './diagnosis-evidence.js';
import {
  DEFAULT_DIAGNOSE_THRESHOLDS,
  type DiagnoseThresholds,
  type DiagnosisFacts,
  type SenderSignal,
  type Usage,
} from './diagnosis-facts.js';

export type Verdict = 'recipient_level' | 'campaign_level' | 'account_level' | 'insufficient_data';

export interface Diagnosis {
  verdict: Verdict;
  /** What the verdict is about: the template or audience to change, the sender, or null. */
  subject: string | null;
  summary: string;
  action: string;
  /** Decisive observations first, then the rest of the investigation. */
  evidence: Evidence[];
}

const GOOD_QUALITY = new Set(['GREEN', 'HIGH', 'UNKNOWN']);
/** A template rated this low is a strong signal; YELLOW (medium) only counts with another one. */
const LOW_QUALITY = new Set(['RED', 'LOW']);
const BAD_TEMPLATE_STATUS = new Set(['paused', 'disabled', 'rejected', 'deleted']);
/** Classes that describe the recipient's inbox, not the business: waiting or the recipient fixes them. */
const RECIPIENT_CLASSES = new Set<ErrorClass>([
  'per_user_marketing_cap',
  'experiment_hold',
  'user_stopped_marketing',
  'recipient_undeliverable',
  'recipient_not_allowed',
  'pair_rate_limit',
]);

/**
 * Where a 131049 problem lives, from the facts of one scope: the recipients (a normal per-user cap,
 * spread thinly), one campaign (its template or audience) or the account (quality, restrictions).
 * Account signals outrank the rest, because they hold every campaign back. Pure.
 */
export function diagnose(
  facts: DiagnosisFacts,
  capCodes: readonly number[],
  t: DiagnoseThresholds = DEFAULT_DIAGNOSE_THRESHOLDS,
): Diagnosis {
  const base = describeFacts(facts, capCodes, t);
  const decided: Decide = (verdict, subject, summary, action, decisive, topic = TOPIC[verdict]) => ({
    verdict,
    subject,
    summary,
    action,
    evidence: [...decisive.map((text): Evidence => ({ topic, text, decisive: true })), ...base],
  });

  const account = accountFindings(facts, capCodes);
  if (account.length > 0) {
    const sender = facts.senders.find((s) => senderProblem(s, capCodes) !== null);
    return decided(
      'account_level',
      sender ? `sender ${sender.phoneNumberId}` : 'the WhatsApp Business account',
      'The account or the sending number is limited: every campaign is held back, not one audience.',
      ACCOUNT_ACTION,
      account,
    );
  }
  if (facts.sends.messages === 0) {
    return decided(
      'insufficient_data',
      null,
      'Nothing was sent in this scope, so there is nothing to diagnose.',
      'Widen the window (--since) or pick a campaign that has sent.',
      [],
    );
  }
  const refusal = templateRefusal(facts);
  if (refusal !== null) return decided('campaign_level', refusal.subject, refusal.summary, refusal.action, refusal.decisive);
  const flagged = flaggedTemplates(facts, t);
  const worst = flagged[0];
  if (worst !== undefined) {
    const { usage, reasons } = worst;
    return decided(
      'campaign_level',
      usage.label,
      `Template ${usage.label} stands out: its recipients react worse than the rest of the traffic.`,
      campaignAction(usage),
      reasons,
    );
  }
  const segment = flaggedCampaigns(facts, t)[0];
  if (segment !== undefined) {
    const { usage, reasons } = segment;
    return decided(
      'campaign_level',
      usage.label,
      `${usage.label} stands out: its audience reacts worse than the audiences of the other campaigns.`,
      segmentAction(usage),
      reasons,
      'campaigns',
    );
  }
  const c = facts.consent;
  if (c.recipients >= t.minMessages && share(c.granted, c.recipients) < t.grantedShare) {
    return decided(
      'campaign_level',
      'audience without granted marketing consent',
      'A large part of the affected audience never granted marketing consent.',
      CONSENT_ACTION,
      [
        `Only ${pct(c.granted, c.recipients)} of ${c.recipients} affected recipient(s) granted marketing consent (threshold ${pct(t.grantedShare, 1)}).`,
      ],
      'consent',
    );
  }
  if (facts.sends.messages < t.minMessages) {
    return decided(
      'insufficient_data',
      null,
      `Only ${facts.sends.messages} message(s) in scope: too few to tell a pattern from chance.`,
      'Look at the contacts one by one (pacer contact explain) or wait for more sends.',
      [],
    );
  }
  return recipientVerdict(facts, capCodes, t, decided);
}

type Decide = (
  verdict: Verdict,
  subject: string | null,
  summary: string,
  action: string,
  decisive: readonly string[],
  topic?: EvidenceTopic,
) => Diagnosis;

/** Where the decisive observations of each verdict belong. */
const TOPIC: Record<Verdict, EvidenceTopic> = {
  recipient_level: 'scope',
  campaign_level: 'templates',
  account_level: 'account',
  insufficient_data: 'scope',
};

function recipientVerdict(f: DiagnosisFacts, capCodes: readonly number[], t: DiagnoseThresholds, decided: Decide): Diagnosis {
  if (f.failing.recipients === 0) {
    return decided('insufficient_data', null, 'No message in this scope failed: there is no failure to explain.', 'Nothing to do.', [
      `0 failures among ${f.sends.messages} message(s).`,
    ]);
  }
  const failed = f.failures.reduce((n, c) => n + c.messages, 0);
  const recipientSide = f.failures.filter((c) => RECIPIENT_CLASSES.has(classifyCode(c.code, capCodes))).reduce((n, c) => n + c.messages, 0);
  const capped = f.failures.filter((c) => capCodes.includes(c.code)).reduce((n, c) => n + c.messages, 0);
  if (share(recipientSide, failed) < 0.5) {
    const top = f.failures[0];
    return decided(
      'insufficient_data',
      null,
      'Most failures are not about recipients, accounts or templates this diagnosis can judge.',
      `Read the operator page of the most frequent code: pacer explain ${top?.code ?? ''}`.trim(),
      [`${failed - recipientSide} of ${failed} failed message(s) have codes outside the recipient-level classes.`],
    );
  }
  const spread = share(f.failing.repeated, f.failing.recipients);
  const decisive = [
    `${pct(capped, failed)} of failed messages are per-user caps (${capped} of ${failed}); ${pct(f.failing.recipients, f.sends.recipients)} of recipients failed.`,
    spread === 0
      ? 'No recipient failed repeatedly: the failures are spread thinly across the audience.'
      : `${f.failing.repeated} of ${f.failing.recipients} failing recipient(s) (${pct(f.failing.repeated, f.failing.recipients)}) failed ${t.repeatedFailures} or more times, Pacer's spaced retries included.`,
    'No template, audience or account signal stands out.',
  ];
  const action =
    capped > 0
      ? "Nothing to fix: WhatsApp limits how much marketing each person receives from all businesses. Pacer waits out each recipient's cool-off (at least 24 h, growing gaps) and retries; utility messages still go. Do not resend by hand."
      : 'The failures belong to individual recipients (unreachable, stopped or not allowed); Pacer already skips or retries them as each code requires.';
  return decided(
    'recipient_level',
    null,
    'A normal per-recipient pattern: individual inboxes refused messages, not the campaign or the account.',
    action,
    decisive,
  );
}

const ACCOUNT_ACTION =
  "Pause marketing and fix the account first: check the number's quality and limits in WhatsApp Manager, the account's restriction notice and payment method, and the templates with poor quality. Resume with your most engaged, consented audience and a lower volume.";
const CONSENT_ACTION =
  'Send marketing only to contacts with recorded marketing consent: add `consent: ["marketing"]` to the segment and re-collect opt-ins that name WhatsApp and this business.';

function segmentAction(u: Usage): string {
  return `Narrow the segment of ${u.label} to recipients who engaged recently and asked for this kind of message, or stop it; the other campaigns can go on.`;
}

function campaignAction(u: Usage): string {
  return `Stop sending ${u.label} to this audience: narrow the segment to recipients who engaged recently, make the content relevant to them or replace the template, and resume after its quality recovers. Keep other templates running.`;
}

function accountFindings(f: DiagnosisFacts, capCodes: readonly number[]): string[] {
  const out: string[] = [];
  for (const s of f.senders) {
    const problem = senderProblem(s, capCodes);
    if (problem !== null) out.push(problem);
  }
  for (const c of f.failures) {
    if (classifyCode(c.code, capCodes) === 'account_problem')
      out.push(`${c.messages} message(s) refused with ${c.code}, an account-level error.`);
  }
  // A restriction that has since lifted still explains the failures it caused in the window.
  const restrictions = f.senderEvents.filter((e) => e.source.startsWith('account_update') && e.state !== 'ok');
  const lifted = restrictions.filter((e) => !f.senders.some((s) => s.phoneNumberId === e.phoneNumberId && s.state !== 'ok'));
  for (const e of lifted) out.push(`Sender ${e.phoneNumberId} was restricted within the window (${e.reason ?? e.source}), since lifted.`);
  return out;
}

function senderProblem(s: SenderSignal, capCodes: readonly number[]): string | null {
  if (s.state === 'stopped') return `Sender ${s.phoneNumberId} is stopped: ${s.reason ?? 'no reason recorded'}.`;
  if (s.state === 'throttled' && isAccountReason(s.reason, capCodes)) return `Sender ${s.phoneNumberId} is restricted: ${s.reason ?? ''}.`;
  if (s.quality !== null && !GOOD_QUALITY.has(s.quality.toUpperCase()))
    return `Sender ${s.phoneNumberId} quality rating is ${s.quality} (a drop from GREEN).`;
  return null;
}

/** Sender reasons are `<code> <name>` or `account_update <EVENT>`; a rate limit is not an account problem. */
function isAccountReason(reason: string | null, capCodes: readonly number[]): boolean {
  if (reason === null) return false;
  if (reason.startsWith('account_update')) return true;
  const code = /^(\d+)\b/.exec(reason)?.[1];
  return code !== undefined && classifyCode(Number(code), capCodes) === 'account_problem';
}

/**
 * Meta refusing the template or the payload built from it (132001, 132012...): every message built
 * the same way fails, so even one refusal decides, whatever the sample. The subject is the template
 * that failed: the campaign's, or the one template with failures in scope.
 */
function templateRefusal(f: DiagnosisFacts): { subject: string | null; summary: string; action: string; decisive: string[] } | null {
  const refused = f.failures.filter((c) => {
    const entry = findErrorByCode(c.code);
    return entry?.class === 'template_problem' && entry.effects.campaign === 'pause';
  });
  const top = refused[0];
  if (top === undefined) return null;
  const failing = f.templates.filter((u) => u.failed > 0);
  const subject = f.campaign?.template ?? (failing.length === 1 ? (failing[0]?.label ?? null) : null);
  const decisive = refused.map(
    (c) =>
      `${c.messages} message(s) refused with ${c.code} (${findErrorByCode(c.code)?.name ?? 'template problem'}): Meta refuses every message built this way, however few were sent.`,
  );
  return {
    subject,
    summary: `Meta refuses ${subject === null ? 'a template' : `template ${subject}`} as it is sent: no message built this way can go.`,
    action: `${findErrorByCode(top.code)?.page.action ?? 'Fix the template or the variable mapping, then resume.'} (pacer explain ${top.code})`,
    decisive,
  };
}

interface Flagged {
  usage: Usage;
  reasons: string[];
  strength: number;
}

/** Templates with a strong signal (status, quality, stops) or two weaker ones, worst first. */
function flaggedTemplates(f: DiagnosisFacts, t: DiagnoseThresholds): Flagged[] {
  return rank(
    f.templates.map((u) => {
      const strong: string[] = [];
      const weak: string[] = [];
      if (u.status !== null && BAD_TEMPLATE_STATUS.has(u.status)) strong.push(`Meta ${u.status} template ${u.label}.`);
      const quality = u.quality?.toUpperCase() ?? 'UNKNOWN';
      if (LOW_QUALITY.has(quality)) strong.push(`Template ${u.label} quality is ${u.quality}: recipients block or report it.`);
      else if (!GOOD_QUALITY.has(quality)) weak.push(`Template ${u.label} quality fell to ${u.quality}.`);
      const rates = rateSignals(u, f.templates, 'templates', t);
      return { usage: u, strong: [...strong, ...rates.strong], weak: [...weak, ...rates.weak] };
    }),
  );
}

/** Campaigns (segments) compared with each other, when the scope holds more than one. */
function flaggedCampaigns(f: DiagnosisFacts, t: DiagnoseThresholds): Flagged[] {
  if (f.campaigns.length < 2) return [];
  return rank(f.campaigns.map((u) => ({ usage: u, ...rateSignals(u, f.campaigns, 'campaigns', t) })));
}

function rank(signals: readonly { usage: Usage; strong: string[]; weak: string[] }[]): Flagged[] {
  return signals
    .filter((s) => s.strong.length > 0 || s.weak.length >= 2)
    .map((s) => ({ usage: s.usage, reasons: [...s.strong, ...s.weak], strength: s.strong.length * 2 + s.weak.length }))
    .sort((a, b) => b.strength - a.strength || b.usage.messages - a.usage.messages);
}

/** What the recipients of one group did, against the threshold rates; `peers` are the groups to compare caps with. */
function rateSignals(
  u: Usage,
  peers: readonly Usage[],
  kind: 'templates' | 'campaigns',
  t: DiagnoseThresholds,
): { strong: string[]; weak: string[] } {
  const strong: string[] = [];
  const weak: string[] = [];
  if (u.messages < t.minTemplateMessages) return { strong, weak };
  if (share(u.stopped, u.recipients) >= t.stopRate)
    strong.push(
      `${u.stopped} of ${u.recipients} recipient(s) of ${u.label} stopped marketing (${pct(u.stopped, u.recipients)}, threshold ${pct(t.stopRate, 1)}).`,
    );
  if (share(u.silent, u.messages) >= t.silentRate)
    weak.push(
      `${pct(u.silent, u.messages)} of ${u.label} messages were accepted but never delivered while the recipient got others (block proxy).`,
    );
  const capExcess = capExcessOf(u, peers, kind, t);
  if (capExcess !== null) weak.push(capExcess);
  if (u.category === 'marketing' && u.delivered >= t.minTemplateMessages && share(u.read, u.delivered) < t.lowReadRate)
    weak.push(`Only ${pct(u.read, u.delivered)} of delivered ${u.label} messages were read.`);
  return { strong, weak };
}

/** The group's cap rate against every other group of its category together. */
function capExcessOf(u: Usage, all: readonly Usage[], kind: 'templates' | 'campaigns', t: DiagnoseThresholds): string | null {
  const rest = all.filter((o) => o !== u && o.category === u.category);
  const restMessages = rest.reduce((n, o) => n + o.messages, 0);
  if (restMessages < t.minTemplateMessages) return null;
  const rate = share(u.capped, u.messages);
  const restRate = share(
    rest.reduce((n, o) => n + o.capped, 0),
    restMessages,
  );
  if (rate < t.capRateFloor || rate < restRate * t.capExcess) return null;
  return `${u.label} is capped on ${pct(u.capped, u.messages)} of its messages against ${pct(restRate * restMessages, restMessages)} for the other ${u.category} ${kind}.`;
}
