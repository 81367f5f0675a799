import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { asCli, columnMapOf, delimiterOf, withContactFileFlags, type ContactFileFlags } from '../../adapters/cli/contact-file-flags.js';
import type { ColumnMap } from '../../app/import-columns.js';
import { CliFailure, EXIT } from '../../adapters/cli/exit-codes.js';
import { ImportInputError } from '../../app/contact-source.js';
import { isCountryCode } from '../../app/normalise-phone.js';
import { DAY, HOUR } from '../../core/time.js';
import { DEMO_AUDIENCE, defaultDemoPlan, type DemoPlan } from '../demo/demo-plan.js';
import { LabAudienceError, readLabAudience, type LabAudience } from '../demo/lab-audience.js';
import { labFolderProblem, labJson, LabSetupError, runLab, simulatedCountryCounts } from '../demo/run-lab.js';
import { DEMO_STRATEGIES, pickStrategies, UnknownStrategyError } from '../demo/strategies.js';
import type { MainDeps } from './main-deps.js';

interface LabCliOptions extends ContactFileFlags {
  audience?: string;
  defaultCountry?: string;
  days: string;
  strategies: string;
  seed?: string;
  out: string;
  json?: boolean;
}

const MAX_DAYS = 60;

export const labCommand: CliCommand<MainDeps> = {
  path: ['lab'],
  define: (c) =>
    withContactFileFlags(
      c
        .description("Compare Pacer's policies with peers' documented ways of handling 131049, on one simulated world (see README)")
        .option(
          '--audience <file>',
          `your contacts (CSV or JSON Lines, as \`pacer import contacts\` reads them); default: the demo's ${DEMO_AUDIENCE.toLocaleString('en-US')}`,
        ),
    )
      .option('--default-country <XX>', 'country of numbers in national format in the audience file (ISO code, e.g. GB)')
      .option('--days <n>', `simulated days, 1 to ${MAX_DAYS}`, '7')
      .option('--strategies <list>', `comma-separated strategy names, or all`, DEMO_STRATEGIES.join(','))
      .option('--seed <n>', "the simulated world's seed (default: the demo's)")
      .option('--out <dir>', "the lab's folder: each run replaces the report and the Pacer databases in it", 'data/lab')
      .option('--json', 'print the table as JSON (progress goes to the terminal only)'),
  run: (deps) => async (opts: LabCliOptions) => {
    const days = wholeNumber(opts.days, '--days', 1, MAX_DAYS);
    const seed = opts.seed === undefined ? null : wholeNumber(opts.seed, '--seed', 0, 2 ** 31 - 1);
    let strategies;
    try {
      strategies = pickStrategies(opts.strategies);
    } catch (e) {
      if (e instanceof UnknownStrategyError) throw new CliFailure(e.message, EXIT.usage);
      throw e;
    }
    const country = opts.defaultCountry?.toUpperCase();
    if (country !== undefined && !isCountryCode(country))
      throw new CliFailure(
        `--default-country "${opts.defaultCountry}" is not a known two-letter country code (e.g. GB, US, IN)${country === 'UK' ? '; the United Kingdom is GB' : ''}`,
        EXIT.usage,
      );
    const outDir = path.resolve(opts.out);
    // Before the audience is read: a folder the lab cannot make is the user's to fix, said at once.
    const folderProblem = labFolderProblem(outDir);
    if (folderProblem !== null) throw new CliFailure(`--out ${opts.out}: ${folderProblem}`, EXIT.usage);
    const json = opts.json === true;
    const progress = json ? (line: string) => deps.terminal?.write(`${line}\n`) : deps.out;

    const fileFlags = (['format', 'map', 'delimiter'] as const).filter((f) => opts[f] !== undefined && opts[f].length > 0);
    if (opts.audience === undefined && (fileFlags.length > 0 || opts.defaultCountry !== undefined))
      throw new CliFailure(
        `${[...fileFlags, ...(opts.defaultCountry === undefined ? [] : ['default-country'])].map((f) => `--${f}`).join(', ')}: these say how to read --audience; give the file too`,
        EXIT.usage,
      );
    let audience: LabAudience | null = null;
    const warnings: string[] = [];
    // The audience as read and the warnings: printed before the run, and repeated in the report.
    const about: string[] = [];
    if (opts.audience !== undefined) {
      // A size where a file belongs: the demo takes that.
      if (/^\d+$/.test(opts.audience.trim()) && !existsSync(opts.audience))
        throw new CliFailure(
          `--audience ${opts.audience}: the lab's --audience is a contacts file (CSV or JSON Lines); for a simulated audience of ${opts.audience}: pacer demo --audience ${opts.audience}`,
          EXIT.usage,
        );
      const file = path.resolve(opts.audience);
      const delimiter = delimiterOf(opts.delimiter);
      const columns = asCli(() => columnMapOf(opts.map));
      try {
        const source = await deps.contactFiles.open(file, deps.contactFiles.formatOf(file, opts.format), { delimiter });
        audience = await readLabAudience(source, {
          columns,
          defaultCountry: country ?? null,
          policy: deps.policy(),
          now: deps.now(),
        });
      } catch (e) {
        if (e instanceof ImportInputError)
          throw new CliFailure(`--audience ${opts.audience}: ${e.message}`, e.kind === 'usage' ? EXIT.usage : EXIT.failure);
        if (e instanceof LabAudienceError) throw new CliFailure(`--audience ${opts.audience}: ${e.message}`, EXIT.usage);
        throw e;
      }
      about.push(
        `Audience ${path.basename(file)}: ${audience.size.toLocaleString('en-US')} contacts, ${Math.round(100 * audience.marketingOptIn)}% opted in to marketing, ${Math.round(100 * audience.utilityOptIn)}% to utility${audience.duplicates ? `, ${audience.duplicates} row${audience.duplicates === 1 ? '' : 's'} repeating an earlier row's number (merged into one contact each, as the import does)` : ''}${audience.otherCountries === 0 ? '' : `, ${audience.otherCountries} in countries the simulator does not model (simulated with the file's mix of the others)`}.`,
      );
      // What is simulated: the file's size over the modelled countries' shares (others are spread over them).
      const byCount = simulatedCountryCounts(audience.countries, audience.size).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      about.push(`Countries simulated: ${byCount.map(([code, n]) => `${code} ${n.toLocaleString('en-US')}`).join(' · ')}.`);
      warnings.push(...consentWarnings(audience, path.basename(file), columns));
      about.push(...warnings.map((w) => `Warning: ${w}`));
      for (const line of about) progress(line);
    }
    const plan = labPlan(days, seed, audience);
    const result = await asLabCommand(() =>
      runLab({
        plan,
        strategies,
        outDir,
        out: progress,
        json,
        ...(audience === null ? {} : { countries: audience.countries, title: `Pacer lab on ${path.basename(opts.audience ?? '')}`, about }),
        logErrors: deps.config().demo.log,
        keepDataDir: deps.config().storage.dataDir,
      }),
    );
    if (json) {
      const read =
        audience === null
          ? undefined
          : {
              file: path.basename(opts.audience ?? ''),
              size: audience.size,
              countries: audience.countries,
              otherCountries: audience.otherCountries,
              marketingOptIn: audience.marketingOptIn,
              utilityOptIn: audience.utilityOptIn,
              duplicates: audience.duplicates ?? 0,
            };
      deps.out(JSON.stringify(labJson(result, { ...(read === undefined ? {} : { audience: read }), warnings }), null, 2));
    }
  },
};

/**
 * A file where nobody consented to marketing or to utility runs, but every strategy then sends
 * nothing of that kind: said before the run, naming the column (or its absence).
 */
function consentWarnings(audience: LabAudience, file: string, columns: ColumnMap): string[] {
  const out: string[] = [];
  for (const [share, kind, what, field] of [
    [audience.marketingOptIn, 'marketing', 'the campaign reaches', 'consent_marketing'],
    [audience.utilityOptIn, 'utility', 'the order updates reach', 'consent_utility'],
  ] as const) {
    if (share > 0) continue;
    if (audience.hasColumn?.[field] === false)
      out.push(
        `${file} has no ${field} column (if it has another name: --map ${field}=<column>), so nobody consented to ${kind} and ${what} nobody.`,
      );
    else out.push(`no contact in ${file} consented to ${kind}, so ${what} nobody (column ${columns[field] ?? field}).`);
  }
  return out;
}

/**
 * The demo's plan, for the user's days, seed and audience: order updates on days 2, 4, 6… (a day after
 * the campaign, then every other day), within the run.
 */
export function labPlan(days: number, seed: number | null, audience: LabAudience | null): DemoPlan {
  const base = defaultDemoPlan(audience?.size);
  const utility = Array.from({ length: Math.ceil((days - 1) / 2) }, (_, k) => ({
    template: 'order_update',
    language: 'en_US',
    at: (1 + 2 * k) * DAY + 2 * HOUR,
    share: 0.3,
  }));
  return {
    ...base,
    days,
    ...(seed === null ? {} : { seed }),
    ...(audience === null ? {} : { marketingOptIn: audience.marketingOptIn, utilityOptIn: audience.utilityOptIn }),
    utility,
  };
}

/** The lab (or the demo, its default run) as a command: a folder it must not use is a usage error (exit 2), named. */
export async function asLabCommand<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof LabSetupError) throw new CliFailure(e.message, EXIT.usage);
    throw e;
  }
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < min || n > max)
    throw new CliFailure(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`, EXIT.usage);
  return n;
}
