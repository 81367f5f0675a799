import {
  createCampaign,
  DEFAULT_POLICY_PRESET,
  POLICY_PRESETS,
  type CreateCampaignProblem,
  type CreateCampaignResult,
  type NewCampaign,
} from '../../../app/create-campaign.js';
import { parseSegment } from '../../../app/segment-schema.js';
import { senderPoolSchema } from '../../../app/sender-pool.js';
import { poolNumbers, type SenderPool } from '../../../core/sender-pool.js';
import { campaignTimingInput, type CampaignTimingInput } from '../../../app/message-timing.js';
import { parseDuration, parseFrequencyCap } from '../../../core/duration.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { collect, parseParameterFlags } from '../parameter-flags.js';

interface CreateOptions {
  name: string;
  template: string;
  language: string;
  segment?: string;
  at?: string;
  ends?: string;
  preset: string;
  /** `1/7d` or `off`; absent: the configured frequency cap. */
  frequencyCap?: string;
  param?: string[];
  fallback?: string[];
  sender?: string;
  window?: string;
  days?: string;
  timeZone?: string;
  maxDelay?: string;
  spreadOver?: string;
  spread?: string;
  byCountry?: string;
  otherwise?: string;
}

const ENDS = '--ends must be an ISO time after the start, e.g. 2026-12-08T09:00:00Z';

const PROBLEMS: Record<Exclude<CreateCampaignProblem, 'parameters' | 'sender_pool'>, (o: CreateOptions) => string> = {
  template_not_registered: (o) =>
    `Template ${o.template} (${o.language}) is not known: run pacer template sync (or, offline, pacer template add ${o.template} --language ${o.language} --category marketing)`,
  template_unavailable: (o) => `Template ${o.template} (${o.language}) is rejected, disabled or deleted at Meta: it cannot be sent`,
  ends_before_start: () => ENDS,
  unknown_preset: (o) => `--preset must be one of ${POLICY_PRESETS.join(', ')}, got "${o.preset}"`,
};

function problemText(r: Extract<CreateCampaignResult, { ok: false }>, o: CreateOptions): string {
  if (r.problem === 'sender_pool') return `The sender pool cannot be used: ${r.detail}; nothing was created`;
  if (r.problem !== 'parameters') return PROBLEMS[r.problem](o);
  const lines = r.issues.map((i) => `  ${i.key}: ${i.message}`);
  return `The --param mapping does not fit template ${o.template} (${o.language}); nothing was created:\n${lines.join('\n')}`;
}

/** `pacer campaign create`: the template must be registered; the sender is --sender, a pool, or the configured number. */
export const campaignCreateCommand: CliCommand = {
  path: ['campaign', 'create'],
  define: (c) =>
    c
      .description('Create a campaign (draft) from a registered template and a segment')
      .requiredOption('--name <name>', 'campaign name')
      .requiredOption('--template <name>', 'registered template')
      .option('--language <code>', 'template language', 'en_US')
      .option('--segment <json>', 'segment, e.g. {"tagsAll":["vip"],"exclude":["stopped","unreachable"]}')
      .option('--at <iso>', 'start sending at this time (default: when started)')
      .option('--ends <iso>', 'end the campaign at this time: rows still held or not yet due are skipped')
      .option('--preset <name>', `131049 retry schedule: ${POLICY_PRESETS.join(', ')}`, DEFAULT_POLICY_PRESET)
      .option('--frequency-cap <cap>', "this campaign's own frequency cap, e.g. 1/7d, or off (default: PACER_FREQUENCY_CAP)")
      .option(
        '--param <key=source>',
        'a template value: body.1=attribute:first_name, button.0=text:SAVE15, header=link:URL (repeat)',
        collect,
      )
      .option('--fallback <key=text>', 'the text for a --param attribute a contact has no value for (repeat)', collect)
      .option(
        '--window <HH:MM-HH:MM>',
        "send only between these hours of each recipient's local time, e.g. 09:00-20:00 (replaces PACER_QUIET_HOURS)",
      )
      .option('--days <days>', 'with --window: the weekdays it opens on, e.g. mon-fri or mon,wed,sat')
      .option('--time-zone <zone>', 'the zone of recipients whose zone is not known (default: PACER_DEFAULT_TIME_ZONE)')
      .option(
        '--max-delay <duration>',
        'a message that cannot go within this long of the start ends expired instead of going late, e.g. 12h',
      )
      .option(
        '--spread-over <duration>',
        'spread the sends over this long after each opening of the window (or after the start), e.g. 2h; off sends at once (default: PACER_SEND_SPREAD)',
      )
      .option('--sender <phone-number-id>', 'the number it sends from (default: WHATSAPP_PHONE_NUMBER_ID)')
      .option('--spread <ids>', 'send from several numbers, recipients spread evenly: comma-separated phone number ids')
      .option('--by-country <map>', "send from each recipient's country's number: GB=<id>,DE=<id> (routed by calling code)")
      .option('--otherwise <phone-number-id>', 'with --by-country: the number for every other recipient (default: they are left out)')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, phoneNumberId, now, policy }) =>
    async (opts: CreateOptions & JsonOption) => {
      const pool = parsePool(opts);
      const sender = opts.sender ?? pool?.first ?? phoneNumberId();
      if (sender === null)
        throw new CliFailure('Name the number it sends from: --sender <phone-number-id>, a pool, or WHATSAPP_PHONE_NUMBER_ID.', EXIT.usage);
      const campaign = { ...parseCreateOptions(opts), sender: { phoneNumberId: sender }, ...(pool === null ? {} : { pool: pool.pool }) };
      await withStore(async (store) => {
        const r = await createCampaign(store, campaign, now(), policy().marketingPath);
        if (!r.ok) throw new CliFailure(problemText(r, opts), EXIT.usage);
        out(
          opts.json
            ? JSON.stringify({ ...r.campaign, warnings: r.warnings })
            : [
                `Campaign #${r.campaign.id} created (draft). Start it with: pacer campaign start ${r.campaign.id}`,
                ...r.warnings.map((w) => `Warning: ${w}`),
              ].join('\n'),
        );
      });
    },
};

/** `--spread` or `--by-country` (with `--otherwise`), checked by the pool's schema; null when neither is given. */
function parsePool(o: CreateOptions): { pool: SenderPool; first: string } | null {
  if (o.spread !== undefined && o.byCountry !== undefined) throw new CliFailure('Give --spread or --by-country, not both.', EXIT.usage);
  if (o.otherwise !== undefined && o.byCountry === undefined) throw new CliFailure('--otherwise goes with --by-country.', EXIT.usage);
  if (o.sender !== undefined && (o.spread !== undefined || o.byCountry !== undefined))
    throw new CliFailure('--sender names one number; a pool (--spread, --by-country) names its own.', EXIT.usage);
  let raw: unknown;
  if (o.spread !== undefined) raw = { by: 'spread', numbers: o.spread.split(',').map((s) => s.trim()) };
  else if (o.byCountry !== undefined) {
    const countries: Record<string, string> = {};
    for (const pair of o.byCountry.split(',')) {
      const [country, id, extra] = pair.split('=').map((s) => s.trim());
      if (country === undefined || id === undefined || extra !== undefined || country === '' || id === '')
        throw new CliFailure(`--by-country: "${pair}" is not COUNTRY=<phone-number-id>, e.g. GB=106540352242922`, EXIT.usage);
      countries[country.toUpperCase()] = id;
    }
    raw = { by: 'country', countries, otherwise: o.otherwise ?? null };
  } else return null;
  const parsed = senderPoolSchema.safeParse(raw);
  if (!parsed.success) {
    const flag = o.spread !== undefined ? '--spread' : '--by-country';
    throw new CliFailure(
      `${flag}: ${parsed.error.issues.map((i) => `${i.path.slice(1).join('.') || i.path.join('.')}: ${i.message}`).join('; ')}`,
      EXIT.usage,
    );
  }
  const first = poolNumbers(parsed.data)[0];
  if (first === undefined) throw new CliFailure('The pool names no number.', EXIT.usage);
  return { pool: parsed.data, first };
}

/** The options as the use case takes them; usage errors (exit 2) before anything is opened. */
function parseCreateOptions(o: CreateOptions): Omit<NewCampaign, 'sender' | 'pool'> {
  let segmentJson: unknown = {};
  if (o.segment !== undefined) {
    try {
      segmentJson = JSON.parse(o.segment);
    } catch {
      throw new CliFailure(
        '--segment must be JSON, e.g. \'{"tagsAll":["vip"],"consent":["marketing"],"exclude":["stopped"]}\'',
        EXIT.usage,
      );
    }
  }
  let segment;
  try {
    segment = parseSegment(segmentJson, '--segment');
  } catch (error) {
    throw new CliFailure((error as Error).message, EXIT.usage);
  }
  const scheduledAt = o.at === undefined ? null : Date.parse(o.at);
  if (scheduledAt !== null && Number.isNaN(scheduledAt))
    throw new CliFailure('--at must be an ISO time, e.g. 2026-12-01T09:00:00Z', EXIT.usage);
  const endsAt = o.ends === undefined ? null : Date.parse(o.ends);
  if (endsAt !== null && Number.isNaN(endsAt)) throw new CliFailure(ENDS, EXIT.usage);
  const frequencyCap = o.frequencyCap === undefined ? null : parseFrequencyCap(o.frequencyCap);
  if (o.frequencyCap !== undefined && frequencyCap === null)
    throw new CliFailure(
      `--frequency-cap must be like 1/7d (at most 1 to 16 marketing messages per contact per window) or off, got "${o.frequencyCap}"`,
      EXIT.usage,
    );
  const timing = parseTiming(o);
  return {
    name: o.name,
    template: { name: o.template, language: o.language },
    segment,
    scheduledAt,
    endsAt,
    policyPreset: o.preset,
    frequencyCap,
    parameters: parseParameterFlags(o.param, o.fallback),
    ...(timing === null ? {} : { timing }),
  };
}

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** `--days mon-fri` or `mon,wed,sat` as day names. */
function dayList(text: string): string[] {
  const out: string[] = [];
  for (const part of text
    .toLowerCase()
    .split(',')
    .map((p) => p.trim())) {
    const [a, b, extra] = part.split('-');
    const from = DAY_NAMES.indexOf(a ?? '');
    const to = b === undefined ? from : DAY_NAMES.indexOf(b);
    if (from < 0 || to < 0 || extra !== undefined)
      throw new CliFailure(`--days: "${part}" is not a day (mon … sun) or a range like mon-fri`, EXIT.usage);
    for (let d = from; ; d = (d + 1) % 7) {
      out.push(DAY_NAMES[d] as string);
      if (d === to) break;
    }
  }
  return out;
}

/** `--window`, `--days`, `--time-zone`, `--max-delay`, `--spread-over`, checked by the timing schema; null when none is given. */
function parseTiming(o: CreateOptions): CampaignTimingInput | null {
  if (o.days !== undefined && o.window === undefined) throw new CliFailure('--days goes with --window.', EXIT.usage);
  if (o.window === undefined && o.timeZone === undefined && o.maxDelay === undefined && o.spreadOver === undefined) return null;
  const [from, to, extra] = (o.window ?? '').split('-');
  if (o.window !== undefined && (from === undefined || to === undefined || extra !== undefined))
    throw new CliFailure(`--window must be like 09:00-20:00, got "${o.window}"`, EXIT.usage);
  const maxDelayMs = o.maxDelay === undefined ? undefined : parseDuration(o.maxDelay);
  if (maxDelayMs === null) throw new CliFailure(`--max-delay must be a duration like 12h or 90m, got "${o.maxDelay}"`, EXIT.usage);
  const spreadMs = o.spreadOver === undefined ? undefined : o.spreadOver.trim().toLowerCase() === 'off' ? 0 : parseDuration(o.spreadOver);
  if (spreadMs === null) throw new CliFailure(`--spread-over must be a duration like 2h or 90m, or off, got "${o.spreadOver}"`, EXIT.usage);
  const raw = {
    ...(o.window !== undefined ? { window: { from, to, ...(o.days !== undefined ? { days: dayList(o.days) } : {}) } } : {}),
    ...(o.timeZone !== undefined ? { timeZone: o.timeZone } : {}),
    ...(maxDelayMs !== undefined ? { maxDelayMs } : {}),
    ...(spreadMs !== undefined ? { spreadMs } : {}),
  };
  const parsed = campaignTimingInput.safeParse(raw);
  if (!parsed.success) {
    const flag: Record<string, string> = {
      window: '--window',
      timeZone: '--time-zone',
      maxDelayMs: '--max-delay',
      spreadMs: '--spread-over',
    };
    const problems = parsed.error.issues.map((i) => `${flag[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`);
    throw new CliFailure(problems.join('; '), EXIT.usage);
  }
  return parsed.data;
}
