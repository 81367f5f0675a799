import { iso } from '../../core/time.js';
import type { DiagnosisReport } from '../../app/diagnose.js';

/** The report as JSON (times in ISO 8601), the same for `pacer diagnose --json` and the REST API. */
export function diagnosisJson(report: DiagnosisReport) {
  const { facts, diagnosis } = report;
  return {
    verdict: diagnosis.verdict,
    subject: diagnosis.subject,
    summary: diagnosis.summary,
    action: diagnosis.action,
    evidence: diagnosis.evidence,
    scope: { campaign: facts.campaign, since: iso(facts.since), until: iso(facts.until) },
    facts: {
      sends: facts.sends,
      failures: facts.failures,
      failing: facts.failing,
      templates: facts.templates,
      campaigns: facts.campaigns,
      consent: facts.consent,
      engagement: facts.engagement,
      volume: facts.volume,
      senders: facts.senders,
      numbers: facts.numbers,
      senderEvents: facts.senderEvents.map((e) => ({ ...e, at: iso(e.at) })),
      pauses: facts.pauses,
    },
  };
}

export type DiagnosisJson = ReturnType<typeof diagnosisJson>;
