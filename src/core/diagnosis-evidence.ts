import { classifyCode } from './error-catalogue/index.js';
import type { DiagnoseThresholds, DiagnosisFacts, Usage } from './diagnosis-facts.js';
import { iso } from './time.js';

export type EvidenceTopic = 'scope' | 'templates' | 'campaigns' | 'consent' | 'engagement' | 'volume' | 'account';

/** One observation with its numbers; `decisive` marks those the verdict rests on. */
export interface Evidence {
  topic: EvidenceTopic;
  text: string;
  decisive: boolean;
}

export function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

export function pct(part: number, whole: number): string {
  return `${(share(part, whole) * 100).toFixed(1)}%`;
}

const note = (topic: EvidenceTopic, text: string): Evidence => ({ topic, text, decisive: false });

/** The observations every diagnosis reports, whatever the verdict: the investigation written out. */
export function describeFacts(f: DiagnosisFacts, capCodes: readonly number[], t: DiagnoseThresholds): Evidence[] {
  return [...scope(f, capCodes, t), ...numbers(f), ...templates(f), ...consent(f), ...engagement(f), ...volume(f, t), ...account(f)];
}

/**
 * With more than one number in the scope: what each sent and how much failed, and whether the
 * failures concentrate on one of them (most of the failures, at twice the others' rate).
 */
function numbers(f: DiagnosisFacts): Evidence[] {
  if (f.numbers.length < 2) return [];
  const failed = f.numbers.reduce((n, x) => n + x.failed, 0);
  const out: Evidence[] = [];
  const [worst] = f.numbers;
  if (worst !== undefined && failed > 0) {
    const rest = f.numbers.slice(1);
    const restFailed = rest.reduce((n, x) => n + x.failed, 0);
    const restSent = rest.reduce((n, x) => n + x.messages, 0);
    const restRate = share(restFailed, restSent);
    if (worst.failed * 2 > failed && share(worst.failed, worst.messages) >= 2 * restRate)
      out.push(
        note(
          'account',
          `The failures concentrate on number ${worst.phoneNumberId}: ${worst.failed} of ${failed} failed message(s), ${pct(worst.failed, worst.messages)} of what it sent against ${pct(restFailed, restSent)} from the other numbers.`,
        ),
      );
  }
  for (const x of f.numbers)
    out.push(
      note(
        'account',
        `Number ${x.phoneNumberId}: ${x.messages} message(s), ${x.failed} failed (${pct(x.failed, x.messages)})${x.topCode === null ? '' : `, mostly ${x.topCode}`}.`,
      ),
    );
  return out;
}

function scope(f: DiagnosisFacts, capCodes: readonly number[], t: DiagnoseThresholds): Evidence[] {
  const { sends, failing } = f;
  const out = [
    note(
      'scope',
      `${sends.messages} message(s) to ${sends.recipients} recipient(s) in ${sends.attempts} send attempt(s); ${failing.recipients} recipient(s) (${pct(failing.recipients, sends.recipients)}) had a failure.`,
    ),
  ];
  for (const c of f.failures.slice(0, 6)) {
    out.push(
      note(
        'scope',
        `${c.code} (${classifyCode(c.code, capCodes)}): ${c.messages} message(s), ${c.recipients} recipient(s) (${pct(c.recipients, sends.recipients)} of recipients).`,
      ),
    );
  }
  if (failing.recipients > 0) {
    const spread = failing.repeated === 0 ? 'spread thinly: no recipient failed' : `${failing.repeated} recipient(s) failed`;
    out.push(
      note(
        'scope',
        `${failing.attempts} failed attempt(s), retries included, over ${failing.recipients} recipient(s); ${spread} ${t.repeatedFailures} or more times (worst: ${failing.worst}).`,
      ),
    );
  }
  return out;
}

/** One template or campaign: its state when it has one, and its rates. */
export function usageLine(u: Usage & { status?: string | null; quality?: string | null }): string {
  const state = [u.status ?? null, u.quality ? `quality ${u.quality}` : null].filter((s) => s !== null).join(', ');
  return (
    `${u.label}${state ? ` [${state}]` : ''}: ${u.messages} message(s), failed ${pct(u.failed, u.messages)}, capped ${pct(u.capped, u.messages)}, ` +
    `read ${pct(u.read, u.delivered)} of delivered, stopped ${pct(u.stopped, u.recipients)} of recipients, silent ${pct(u.silent, u.messages)}.`
  );
}

function templates(f: DiagnosisFacts): Evidence[] {
  return [...f.templates.map((u) => note('templates', usageLine(u))), ...f.campaigns.map((u) => note('campaigns', usageLine(u)))];
}

function consent(f: DiagnosisFacts): Evidence[] {
  const c = f.consent;
  if (c.recipients === 0) return [];
  const sources = c.sources
    .slice(0, 4)
    .map((s) => `${s.source} ${s.recipients}`)
    .join(', ');
  return [
    note(
      'consent',
      `Of ${c.recipients} affected recipient(s): marketing consent granted ${pct(c.granted, c.recipients)}, revoked ${pct(c.revoked, c.recipients)}, unknown ${pct(c.unknown, c.recipients)}${sources ? `; sources: ${sources}` : ''}.`,
    ),
  ];
}

function engagement(f: DiagnosisFacts): Evidence[] {
  const e = f.engagement;
  const kinds = e.stopKinds.map((k) => `${k.kind} ${k.recipients}`).join(', ');
  return [
    note(
      'engagement',
      `${e.delivered} delivered, ${e.read} read (${pct(e.read, e.delivered)}); ${e.replied} recipient(s) wrote back (${pct(e.replied, f.sends.recipients)}).`,
    ),
    note('engagement', `${e.stopped} recipient(s) stopped marketing (${pct(e.stopped, f.sends.recipients)})${kinds ? `: ${kinds}` : ''}.`),
    note(
      'engagement',
      `Block proxy: ${e.silent} message(s) accepted but never delivered while their recipients received other messages (Meta never reports blocks; template quality is the other proxy).`,
    ),
  ];
}

function volume(f: DiagnosisFacts, t: DiagnoseThresholds): Evidence[] {
  const v = f.volume;
  // A window shorter than a day counts as a day: a burst of a few hours scaled up would read as a spike.
  const perDay = v.attempts / Math.max(v.days, 1);
  if (v.baselineAttempts === 0)
    return [
      note(
        'volume',
        `${perDay.toFixed(0)} send attempt(s) per day; no sends in the ${v.baselineDays.toFixed(0)} day(s) before to compare with.`,
      ),
    ];
  const base = v.baselineAttempts / Math.max(v.baselineDays, 1);
  const ratio = perDay / base;
  const spike = ratio >= t.volumeSpike ? ' — a sharp rise over the usual pattern' : '';
  return [
    note(
      'volume',
      `${perDay.toFixed(0)} send attempt(s) per day against ${base.toFixed(0)} per day before (${ratio.toFixed(1)}x)${spike}.`,
    ),
  ];
}

function account(f: DiagnosisFacts): Evidence[] {
  const out = f.senders.map((s) =>
    note('account', `Sender ${s.phoneNumberId}: quality ${s.quality ?? 'unknown'}, ${s.state}${s.reason ? ` (${s.reason})` : ''}.`),
  );
  for (const e of f.senderEvents) {
    out.push(
      note(
        'account',
        `${iso(e.at)} sender ${e.phoneNumberId} ${e.source}: quality ${e.quality ?? 'unknown'}, ${e.state}${e.reason ? ` (${e.reason})` : ''}.`,
      ),
    );
  }
  for (const p of f.pauses) out.push(note('account', `Campaign #${p.campaignId} ${p.name} paused: ${p.reason}`));
  return out;
}
