import { z } from 'zod';
import type { Category } from '../core/category.js';
import type { MessageTiming } from '../core/decision.js';
import { isTimeZone } from '../core/local-time.js';
import type { Policy } from '../core/policy.js';
import { spreadFraction } from '../core/send-spread.js';
import { localTimeText, outsideQuietHours, parseLocalTime, type SendWindow } from '../core/send-window.js';
import type { Millis } from '../core/time.js';
import { DAY, durationText, MINUTE } from '../core/time.js';
import type { Campaign, JsonObject } from '../ports/store.js';
import { recipientZone } from './recipient-zone.js';

/**
 * A campaign's own timing, as stored: its window in local minutes, its default zone, its maximum delay,
 * and the spread of its sends after each opening (0: at once, whatever the installation's default).
 */
export interface CampaignTiming {
  window?: SendWindow;
  timeZone?: string;
  maxDelayMs?: number;
  spreadMs?: number;
}

/** The longest spread a campaign may ask for: a window is at most a day long. */
export const MAX_SPREAD_MS = DAY;

const localTime = z.string().transform((text, ctx) => {
  const minutes = parseLocalTime(text);
  if (minutes === null) ctx.addIssue({ code: 'custom', message: `"${text}" is not a local time like 09:00 or 20:30` });
  return minutes ?? 0;
});

/** Weekdays as campaign timing names them, Monday first (ISO day 1). */
export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** What the CLI and the API take: `{ window: { from: "09:00", to: "20:00", days: ["mon", …] }, timeZone, maxDelayMs, spreadMs }`. */
export const campaignTimingInput = z
  .object({
    window: z
      .object({
        from: localTime,
        to: localTime,
        days: z
          .array(z.enum(WEEKDAY_NAMES as [string, ...string[]]))
          .min(1, 'at least one day')
          .transform((days) => [...new Set(days.map((d) => WEEKDAY_NAMES.indexOf(d) + 1))].sort())
          .optional(),
      })
      .strict()
      .optional(),
    timeZone: z
      .string()
      .refine(isTimeZone, { message: 'not a time zone this platform knows (an IANA name like Europe/London)' })
      .optional(),
    maxDelayMs: z.number().int().min(MINUTE, 'at least one minute').optional(),
    spreadMs: z
      .number()
      .int()
      .refine((ms) => ms === 0 || (ms >= MINUTE && ms <= MAX_SPREAD_MS), { message: 'between one minute and one day, or 0 (at once)' })
      .optional(),
  })
  .strict();

const stored = z
  .object({
    window: z.object({ from: z.number(), to: z.number(), days: z.array(z.number()).nullable() }).optional(),
    timeZone: z.string().optional(),
    maxDelayMs: z.number().optional(),
    spreadMs: z.number().optional(),
  })
  .strict();

export type CampaignTimingInput = z.infer<typeof campaignTimingInput>;

/** The input as the campaign stores it. */
export function storedTiming(input: CampaignTimingInput): CampaignTiming {
  return {
    ...(input.window ? { window: { from: input.window.from, to: input.window.to, days: input.window.days ?? null } } : {}),
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    ...(input.maxDelayMs ? { maxDelayMs: input.maxDelayMs } : {}),
    ...(input.spreadMs !== undefined ? { spreadMs: input.spreadMs } : {}),
  };
}

export function readTiming(json: JsonObject | null | undefined, where: string): CampaignTiming | null {
  if (json === null || json === undefined) return null;
  const parsed = stored.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${where}: its timing cannot be read: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return parsed.data as CampaignTiming;
}

const timings = new WeakMap<object, CampaignTiming | null>();

const quietWindows = new WeakMap<object, SendWindow>();

/** The window quiet hours leave open, one object per policy setting: `decide` keeps texts per window. */
function quietWindow(quiet: NonNullable<Policy['quietHours']>): SendWindow {
  let w = quietWindows.get(quiet);
  if (w === undefined) {
    w = outsideQuietHours(quiet);
    quietWindows.set(quiet, w);
  }
  return w;
}

/** The policy facts a row's timing reads. */
export type TimingPolicy = Pick<Policy, 'quietHours' | 'defaultTimeZone' | 'sendSpreadMs'>;

/**
 * When one row may go, for `decide`: the recipient's zone, the campaign's window (or the policy's
 * quiet hours for their categories), the latest it may still go (the campaign's end, its maximum
 * delay after the row was queued, or the message's own), and, for a campaign's row, its turn in the
 * campaign's spread (from the row's id). Null when nothing limits it.
 */
export function messageTiming(m: {
  category: Category;
  contact: { phoneE164: string | null; attributes: Readonly<Record<string, unknown>> };
  campaign: Campaign | null;
  policy: TimingPolicy;
  queuedAt: Millis;
  /** The outbox row's id: its place in the campaign's spread. */
  rowId?: number;
  notAfter?: Millis | null;
}): MessageTiming | null {
  const campaign = m.campaign;
  let timing: CampaignTiming | null = null;
  if (campaign !== null) {
    const cached = timings.get(campaign);
    timing = cached !== undefined ? cached : readTiming(campaign.timing, `campaign ${campaign.id}`);
    if (cached === undefined) timings.set(campaign, timing);
  }
  const quiet = m.policy.quietHours;
  const window = timing?.window ?? (quiet !== null && quiet.categories.includes(m.category) ? quietWindow(quiet) : null);
  const windowSource = timing?.window !== undefined ? 'campaign' : window !== null ? 'quiet_hours' : null;
  const limits = [campaign?.endsAt ?? null, timing?.maxDelayMs === undefined ? null : m.queuedAt + timing.maxDelayMs, m.notAfter ?? null];
  const known = limits.filter((l): l is number => l !== null);
  const notAfter = known.length === 0 ? null : Math.min(...known);
  const spreadMs = campaign === null ? 0 : (timing?.spreadMs ?? m.policy.sendSpreadMs);
  // Due from the campaign's scheduled start when its rows were queued before it.
  const spread =
    spreadMs > 0 && m.rowId !== undefined
      ? { overMs: spreadMs, fraction: spreadFraction(m.rowId), dueAt: Math.max(m.queuedAt, campaign?.scheduledAt ?? m.queuedAt) }
      : null;
  if (window === null && notAfter === null && spread === null) return null;
  return {
    zone: recipientZone(m.contact, timing?.timeZone ?? m.policy.defaultTimeZone),
    window,
    windowSource,
    notAfter,
    spread,
  };
}

/** What governs when a campaign's messages go, for `campaign status`, the API and the dashboard. */
export interface TimingInEffect {
  window: { from: string; to: string; days: string[] | null } | null;
  /** `campaign`: its own window; `quiet_hours`: the installation's, for `categories`; null: any hour. */
  from: 'campaign' | 'quiet_hours' | null;
  categories: readonly Category[] | null;
  timeZone: string;
  maxDelayMs: number | null;
  /** How long its sends are spread after each opening (0: at once), and whose setting that is. */
  spreadMs: number;
  spreadFrom: 'campaign' | 'PACER_SEND_SPREAD';
  sentence: string;
}

const DAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function timingInEffect(campaign: Campaign, policy: TimingPolicy): TimingInEffect {
  const own = readTiming(campaign.timing, `campaign ${campaign.id}`);
  const timeZone = own?.timeZone ?? policy.defaultTimeZone;
  const maxDelayMs = own?.maxDelayMs ?? null;
  const spreadMs = own?.spreadMs ?? policy.sendSpreadMs;
  const spreadFrom = own?.spreadMs !== undefined ? 'campaign' : 'PACER_SEND_SPREAD';
  const after = own?.window !== undefined || policy.quietHours !== null ? 'each opening' : 'the start';
  const spreadText =
    spreadMs > 0
      ? `; sends spread over ${durationText(spreadMs)} after ${after}${spreadFrom === 'campaign' ? '' : ' (PACER_SEND_SPREAD)'}`
      : '';
  const late = `${spreadText}${maxDelayMs === null ? '' : `; a message that cannot go within ${durationText(maxDelayMs)} ends expired`}`;
  const effect = { timeZone, maxDelayMs, spreadMs, spreadFrom } as const;
  const unknown = ` (recipients of unknown zone: ${timeZone})`;
  if (own?.window !== undefined) {
    const w = own.window;
    const days = w.days === null ? null : w.days.map((d) => DAY_LABELS[d - 1] ?? '?');
    const window = { from: localTimeText(w.from), to: localTimeText(w.to), days };
    const sentence = `Send window: ${window.from}–${window.to} recipient local time${days === null ? '' : `, ${days.join(', ')}`} (this campaign's own)${unknown}${late}.`;
    return { window, from: 'campaign', categories: null, ...effect, sentence };
  }
  const quiet = policy.quietHours;
  if (quiet === null)
    return {
      window: null,
      from: null,
      categories: null,
      ...effect,
      sentence: `Send window: any hour (PACER_QUIET_HOURS off)${late}.`,
    };
  const window = { from: localTimeText(quiet.to), to: localTimeText(quiet.from), days: null };
  const sentence = `Quiet hours: no ${quiet.categories.join(', ')} between ${localTimeText(quiet.from)} and ${localTimeText(quiet.to)} recipient local time (PACER_QUIET_HOURS)${unknown}${late}.`;
  return { window, from: 'quiet_hours', categories: quiet.categories, ...effect, sentence };
}

/** A campaign's own timing in the shape `campaignTimingInput` takes (`09:00`, `mon`), or null when it has none. */
export function timingAsInput(campaign: Pick<Campaign, 'id' | 'timing'>): {
  window?: { from: string; to: string; days?: string[] };
  timeZone?: string;
  maxDelayMs?: number;
} | null {
  const own = readTiming(campaign.timing, `campaign ${campaign.id}`);
  if (own === null) return null;
  const w = own.window;
  return {
    ...(w === undefined
      ? {}
      : {
          window: {
            from: localTimeText(w.from),
            to: localTimeText(w.to),
            ...(w.days === null ? {} : { days: w.days.map((d) => WEEKDAY_NAMES[d - 1] ?? '?') }),
          },
        }),
    ...(own.timeZone === undefined ? {} : { timeZone: own.timeZone }),
    ...(own.maxDelayMs === undefined ? {} : { maxDelayMs: own.maxDelayMs }),
  };
}
