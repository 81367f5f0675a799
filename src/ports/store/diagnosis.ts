import type { NumberSends } from '../../core/diagnosis-facts.js';
import type { CodeCount, ConsentMix, Usage } from '../../core/diagnosis-facts.js';
import type { Millis } from '../../core/time.js';

/** The sends a diagnosis looks at: those attempted in [since, until), of one campaign or of all traffic. */
export interface DiagnosisScope {
  campaignId: number | null;
  since: Millis;
  until: Millis;
  capCodes: readonly number[];
  /** A recipient failing this many times (or more) fails repeatedly. */
  repeatedFailures: number;
  /** Accepted before this time and still not delivered: a candidate for the block proxy. */
  silentBefore: Millis;
}

/** Messages (outbox rows), recipients and send attempts in scope, and what failed. */
export interface DiagnosisSends {
  messages: number;
  recipients: number;
  attempts: number;
  /** Most frequent first. */
  failures: CodeCount[];
  failing: { recipients: number; attempts: number; repeated: number; worst: number };
}

/** What the scope's messages did, for one template or one campaign (the diagnosis's usage without its label). */
export type UsageCounts = Omit<Usage, 'label'>;

/** One template's messages in scope (one-off rows count by category, with a null template). */
export interface TemplateSends extends UsageCounts {
  templateId: number | null;
}

/** One campaign's messages in scope: its segment, as the audience that received them. */
export interface CampaignSends extends UsageCounts {
  campaignId: number;
}

export interface DiagnosisAudience {
  /** Marketing consent of the recipients that failed (of all recipients in scope when none did). */
  consent: ConsentMix;
  /** Recipients who wrote in at or after `since`. */
  replied: number;
  stopped: number;
  stopKinds: { kind: string; recipients: number }[];
}

/** The facts a diagnosis gathers about a scope of sends. */
export type { NumberSends };

export interface DiagnosisStore {
  diagnosisSends(scope: DiagnosisScope): Promise<DiagnosisSends>;
  /** Per template, most messages first. */
  diagnosisTemplates(scope: DiagnosisScope): Promise<TemplateSends[]>;
  /** Per campaign, most messages first; one-off messages are not a campaign. */
  diagnosisCampaigns(scope: DiagnosisScope): Promise<CampaignSends[]>;
  diagnosisAudience(scope: DiagnosisScope): Promise<DiagnosisAudience>;
  /** Per sender number, most failed messages first. */
  diagnosisNumbers(scope: DiagnosisScope): Promise<NumberSends[]>;
  /** Send attempts of all traffic in [since, until): the volume a diagnosis compares. */
  sendAttempts(since: Millis, until: Millis): Promise<number>;
}
