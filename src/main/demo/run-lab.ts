import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveSimulatorConfig, type SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { onlyCountryWeights, type CountryCode } from '../../adapters/simulator/countries.js';
import { countryCounts } from '../../adapters/simulator/population.js';
import { contactStories, when, type ContactStory } from './contact-story.js';
import { cappedInAnyWorld, measure, type StrategyMetrics } from './demo-metrics.js';
import type { DemoPlan } from './demo-plan.js';
import {
  comparisonRows,
  renderedMessage,
  renderHtml,
  renderTable,
  simulatedDays,
  spanOf,
  winners,
  type Column,
  type Row,
} from './demo-report.js';
import { ASSUMED_PRICES, PRICE_SOURCE } from './lab-prices.js';
import { pacerDataDir, type WorldOutcome } from './run-world.js';
import type { Millis } from '../../core/time.js';
import { runWorlds } from './run-worlds.js';
import { STRATEGIES, type Strategy } from './strategies.js';
import { worldAssumptions } from './world-assumptions.js';

export interface LabOptions {
  plan: DemoPlan;
  strategies: readonly Strategy[];
  outDir: string;
  /** Progress and the table; with `json`, progress only (the caller prints the JSON). */
  out: (line: string) => void;
  json?: boolean;
  /** Print the errors of Pacer's HTTP server (PACER_DEMO_LOG). */
  logErrors?: boolean;
  /** The audience's country mix, when it is the user's own file. */
  countries?: Partial<Record<CountryCode, number>>;
  /** What the run is, for the first line and the report's title. */
  title?: string;
  /** What was said of the audience before the run (the file as read, warnings): repeated in the report. */
  about?: readonly string[];
  /** Worlds at once (default: one per core). */
  concurrency?: number;
  /** This installation's data folder (PACER_DATA_DIR): the lab never replaces it as one of its worlds. */
  keepDataDir?: string;
}

const PROGRESS_EVERY_MS = 5_000;

/** The lab cannot run where it was asked to: nothing was written or removed. */
export class LabSetupError extends Error {}

/** The folders from the nearest existing ancestor of `outDir` down: that ancestor first, then those to make. */
function folderChain(outDir: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let at = path.resolve(outDir);
  for (; !existsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.unshift(at);
  return { existing: at, missing };
}

/**
 * What stands in the way of making the lab's folder, or null: the nearest existing ancestor must be a
 * folder. Checked before anything is read, so a bad --out is said first.
 */
export function labFolderProblem(outDir: string): string | null {
  const { existing, missing } = folderChain(outDir);
  if (statSync(existing).isDirectory()) return null;
  return missing.length === 0
    ? 'is a file, not a folder; the lab writes its report and databases into a folder'
    : `${existing} is a file, not a folder`;
}

/** One level at a time: a recursive mkdir under a folder that refuses new entries (/proc) never returns. */
function makeLabFolder(outDir: string): void {
  const problem = labFolderProblem(outDir);
  if (problem !== null) throw new LabSetupError(`--out ${outDir}: ${problem}`);
  for (const dir of folderChain(outDir).missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      throw new LabSetupError(`--out ${outDir}: cannot make the folder ${dir} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
}

export interface LabResult {
  plan: DemoPlan;
  names: string[];
  metrics: Record<string, StrategyMetrics>;
  rows: Row[];
  stories: ContactStory[];
  /** Why a Pacer world's campaign ended the run paused, one line each. */
  pauses: string[];
  report: string;
}

/** The simulated start: a Monday 08:00 UTC. */
export const LAB_START = Date.UTC(2026, 0, 5, 8, 0, 0);

/**
 * The world every strategy shares. Modelling choices, not Meta's numbers: a per-user cap of 2-6
 * marketing messages a day across all businesses, and 0.1-2.5 a day arriving from others.
 */
export function demoSimulator(plan: DemoPlan, countries?: Partial<Record<CountryCode, number>>): SimulatorConfigInput {
  return {
    seed: plan.seed,
    population: {
      size: plan.audience,
      otherMarketingPerDay: { min: 0.1, max: 2.5 },
      // A file's mix is copied, not drawn: a small file's countries would stray from it.
      ...(countries === undefined ? {} : { countries: onlyCountryWeights(countries), countryMix: 'exact' as const }),
    },
    cap: { minPerWindow: 2, maxPerWindow: 6 },
    rateLimits: { throughputMps: plan.mps },
    // Under load Meta delivers statuses seconds late and several to a POST; the demo leans on that.
    webhooks: { batchRate: 0.95, maxBatch: 200, latencyMs: { min: 1_000, max: 8_000 } },
  };
}

/** How many of `size` simulated people each of a file's countries gets, as `demoSimulator` sets them. */
export function simulatedCountryCounts(countries: Partial<Record<CountryCode, number>>, size: number): Array<[CountryCode, number]> {
  return countryCounts(onlyCountryWeights(countries), size);
}

/** Every strategy through the same simulated days on the same seed, side by side: the table, the report and one person's story each. */
export async function runLab(options: LabOptions): Promise<LabResult> {
  const { plan, strategies, out } = options;
  const simulator = demoSimulator(plan, options.countries);
  const start = LAB_START;
  const began = Date.now();
  const worlds = STRATEGIES.filter((s) => s.kind === 'pacer').map((s) => pacerDataDir(options.outDir, s.name));
  const kept = options.keepDataDir === undefined ? undefined : path.resolve(options.keepDataDir);
  const clash = worlds.find((d) => path.resolve(d) === kept);
  if (clash !== undefined)
    throw new LabSetupError(`--out ${options.outDir}: ${clash} is this installation's database (PACER_DATA_DIR); choose another --out`);
  makeLabFolder(options.outDir);
  // The folder is the lab's: a world or report left by an earlier run would sit beside this one as if it were its own.
  // (`lab-audience-data` is where earlier versions read the audience file.)
  for (const d of [...worlds, path.join(options.outDir, 'lab-audience-data')]) rmSync(d, { recursive: true, force: true });
  rmSync(path.join(options.outDir, 'report.html'), { force: true });
  const broadcasts = plan.utility.length === 1 ? 'broadcast' : 'broadcasts';
  out(
    `${options.title ?? 'Pacer lab'}: ${plan.audience.toLocaleString('en-US')} contacts, ${simulatedDays(plan.days)}, one marketing campaign and ${plan.utility.length} order-update ${broadcasts}, seed ${plan.seed}.`,
  );
  out(`The same simulated world runs once per strategy: ${strategies.map((s) => s.name).join(', ')}.`);

  const days = new Map(strategies.map((s) => [s.name, 0]));
  // A line when a world finishes, and otherwise at most every few seconds: one line per world per day
  // made 112 lines for eight strategies over 14 days, and the slowest world alone may wait for a lane.
  let shown = { at: 0, finished: 0 };
  const show = () => {
    const now = { at: Date.now(), finished: [...days.values()].filter((d) => d === plan.days).length };
    if (now.finished === shown.finished && now.at - shown.at < PROGRESS_EVERY_MS) return;
    shown = now;
    out(`  ${[...days].map(([name, d]) => `${name} day ${d}/${plan.days}`).join(' · ')} · ${((now.at - began) / 1000).toFixed(0)} s`);
  };
  const outcomes = await runWorlds(strategies, plan, simulator, start, {
    outDir: options.outDir,
    logErrors: options.logErrors === true,
    concurrency: options.concurrency,
    progress: (name, day) => {
      days.set(name, day);
      show();
    },
  });

  const capped = cappedInAnyWorld(outcomes.map((o) => o.truth));
  const columns: Column[] = outcomes.map((o) => ({
    name: o.strategy,
    metrics: measure(o.truth, start, plan.days, o.retriesSpent, o.wronglySuppressed, capped),
  }));
  const names = columns.map((c) => c.name);
  const rows = comparisonRows(columns);
  const pauses = pauseNotes(outcomes, start);
  const footnote = [...timingFootnote(simulator), PRICE_SOURCE, ...pauses];
  const stories = contactStories(outcomes, start);
  const elapsed = ((Date.now() - began) / 1000).toFixed(1);
  if (options.json !== true) {
    out('');
    out(renderTable(names, rows));
    for (const line of footnote) out(line);
    out('');
    if (stories.length > 0) {
      out(`One contact's ${spanOf(plan.days)} (${stories[0]!.contact}), from the simulator's ground truth:`);
      for (const s of stories) out(`  ${s.strategy}: ${s.story}`);
      out('');
    }
  }
  // Personalised per recipient: first name (or "there"), a coupon of their own in the shop link.
  const first = outcomes[0]?.truth.messages.find((m) => m.template === plan.marketing.template && m.status !== 'failed');
  const sample = first === undefined ? [] : renderedMessage(first.rendered);
  if (sample.length > 0 && options.json !== true) {
    out(`One message of the campaign (${names[0]}), as its recipient read it:`);
    for (const line of sample) out(`  ${line}`);
    out('');
  }
  const report = path.join(options.outDir, 'report.html');
  writeFileSync(
    report,
    renderHtml({
      title: options.title ?? 'Pacer lab',
      subtitle: `${plan.audience.toLocaleString('en-US')} contacts, ${simulatedDays(plan.days)}, seed ${plan.seed}; finished in ${elapsed} s.`,
      ...(options.about === undefined ? {} : { about: options.about }),
      days: plan.days,
      columns,
      describes: strategies.map((s) => `${s.describes} (${s.source})`),
      rows,
      sample,
      footnote,
      stories,
      assumptions: worldAssumptions(simulator),
      prices: {
        source: PRICE_SOURCE,
        rows: Object.entries(ASSUMED_PRICES).map(([k, p]) => [k, p.marketing, p.utility] as [string, number, number]),
      },
    }),
  );
  if (options.json !== true) {
    // Which world set the time: worlds share the cores, so the slowest decides the wait.
    out(`Each world's ${spanOf(plan.days)} took: ${outcomes.map((o) => `${o.strategy} ${o.seconds.toFixed(1)} s`).join(', ')}.`);
    out(`Report: ${report}`);
    for (const s of strategies.filter((x) => x.kind === 'pacer')) {
      const dataDir = pacerDataDir(options.outDir, s.name);
      out(`${s.name}'s database (SQLite): ${path.join(dataDir, 'pacer.sqlite')}`);
    }
    const pacer = strategies.find((s) => s.kind === 'pacer');
    if (pacer !== undefined) {
      const dataDir = pacerDataDir(options.outDir, pacer.name);
      out(`Dashboard on it: PACER_DATA_DIR=${dataDir} npx pacer token create --name dashboard   (prints a sign-in token once)`);
      out(`                 PACER_DATA_DIR=${dataDir} npx pacer serve --no-dispatch   then open http://127.0.0.1:3000/`);
    }
    out(`Try: npx pacer explain 131049`);
    out(`Finished in ${elapsed} s.`);
  }
  return { plan, names, metrics: Object.fromEntries(columns.map((c) => [c.name, c.metrics])), rows, stories, pauses, report };
}

/**
 * A Pacer campaign that paused itself (a quality drop, a paused template) stays paused until an
 * operator resumes it; in a lab nobody does, so its lower figures need the reason beside them.
 */
function pauseNotes(outcomes: readonly WorldOutcome[], start: Millis): string[] {
  return outcomes.flatMap((o) => {
    if (o.campaignPaused === undefined) return [];
    const { at, reason } = o.campaignPaused;
    return [
      `${o.strategy}: its campaign paused itself on ${when(at, null, start)} and was still paused at the end ` +
        `(${reason.replace(/\.$/, '')}). Pacer resumes a paused campaign only when an operator does; the lab resumes nothing.`,
    ];
  });
}

/**
 * The table as JSON (one object per row, with each strategy's value and the row's winners), led by
 * what was run (days, seed, the audience as read, the warnings printed before the run), so a saved
 * file says which run it is without the terminal's lines.
 */
export function labJson(result: LabResult, given: { audience?: object; warnings?: readonly string[] } = {}): object {
  return {
    run: {
      days: result.plan.days,
      seed: result.plan.seed,
      audience: given.audience ?? { file: null, size: result.plan.audience },
      warnings: given.warnings ?? [],
    },
    strategies: result.names,
    rows: result.rows.map((r) => ({
      label: r.label,
      better: r.better,
      values: Object.fromEntries(result.names.map((n, i) => [n, r.values[i]])),
      winners: winners(r).map((i) => result.names[i]),
    })),
    stories: result.stories,
    pausedCampaigns: result.pauses,
    report: result.report,
  };
}

/** What the two timing rows count, with the night hours the simulated world uses. */
function timingFootnote(simulator: SimulatorConfigInput): string[] {
  const { fromHour, toHour } = resolveSimulatorConfig(simulator).reactions.night;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  return [
    `At night: delivered ${hh(fromHour)}–${hh(toHour)} on the recipient's clock. Late: delivered more than 24 h after`,
    "the first request for that recipient and template (retries included). Shares are of each strategy's deliveries.",
  ];
}
