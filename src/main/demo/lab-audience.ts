import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CountryCode as PhoneCountry } from 'libphonenumber-js/max';
import { COUNTRIES, type CountryCode } from '../../adapters/simulator/countries.js';
import { openStore } from '../../adapters/storage/open-store.js';
import type { ContactSource, SourceRow } from '../../app/contact-source.js';
import { columnResolver, type ColumnMap, type ImportField } from '../../app/import-columns.js';
import { importContacts } from '../../app/import-contacts.js';
import { loadContactState } from '../../app/update-contact-state.js';
import type { Policy } from '../../core/policy.js';
import type { Millis } from '../../core/time.js';
import { recipientRegion } from '../../app/recipient-region.js';
import { countryOfWaId } from './lab-prices.js';

/** What the lab takes from the user's file: the simulated audience has its size, country mix and marketing consent. */
export interface LabAudience {
  size: number;
  /** Contacts per country the simulator models. */
  countries: Partial<Record<CountryCode, number>>;
  /** Contacts in countries the simulator does not model: simulated with the file's mix of the others. */
  otherCountries: number;
  /** Share of the file's contacts that consented to marketing. */
  marketingOptIn: number;
  /** Share that consented to utility messages (the order updates). */
  utilityOptIn: number;
  /** Rows that repeated an earlier row's number: one contact, the later row's values winning, as the import does. */
  duplicates?: number;
  /** Whether the file has a column for each consent at all (a header's, or any JSON line's key). */
  hasColumn?: { consent_marketing: boolean; consent_utility: boolean };
}

/** The rows as they are, noting which fields the file has a column for. */
async function* notingFields(rows: AsyncIterable<SourceRow>, columns: ColumnMap, seen: Set<ImportField>): AsyncIterable<SourceRow> {
  const fieldOf = columnResolver(columns);
  const note = (names: Iterable<string>) => {
    for (const name of names) {
      const field = fieldOf(name);
      if (field !== null && field !== 'ignored') seen.add(field);
    }
  };
  for await (const row of rows) {
    if (row.kind === 'header') note(row.columns);
    else if (row.kind === 'row') note(row.values.keys());
    yield row;
  }
}

/** A file the lab cannot use, with each bad row named by line. */
export class LabAudienceError extends Error {}

const LISTED = 10;
const LINES_SHOWN = 3;

/**
 * Refused rows grouped by what is wrong: a file whose 300 rows all lack a country code is one line
 * naming a few of them, not ten copies of the same reason.
 */
class ProblemList {
  private readonly byProblem = new Map<string, { first: string; lines: number[]; count: number }>();

  add(problem: string, line: number): void {
    // The same reason about another value (a masked number, a quoted word) is the same problem.
    const kind = problem.replace(/•+\S*\s?/g, '').replace(/"[^"]*"/g, '"…"');
    const seen = this.byProblem.get(kind) ?? { first: problem, lines: [], count: 0 };
    if (seen.lines.length < LINES_SHOWN) seen.lines.push(line);
    seen.count++;
    this.byProblem.set(kind, seen);
  }

  lines(file: string): string[] {
    const groups = [...this.byProblem].slice(0, LISTED).map(([kind, { first, lines, count }]) => {
      if (count === 1) return `${file} line ${lines[0]}: ${first}`;
      return `${file} lines ${lines.join(', ')}${count > lines.length ? ` and ${count - lines.length} more` : ''}: ${kind}`;
    });
    const unlisted = this.byProblem.size - LISTED;
    return unlisted > 0 ? [...groups, `(${unlisted} more kind${unlisted === 1 ? '' : 's'} of problem)`] : groups;
  }
}

/**
 * Reads the audience file with the contact import itself (the same parsing, phone normalisation and
 * consent columns as `pacer import contacts`) into a scratch database, then summarises it. Any
 * refused row stops the lab, naming its line: a simulation of half a file would mislead.
 */
export async function readLabAudience(
  source: ContactSource,
  options: { columns: ColumnMap; defaultCountry: PhoneCountry | null; policy: Policy; now: Millis },
): Promise<LabAudience> {
  // A scratch database of its own: a refused file leaves nothing behind, not even the lab's folder.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pacer-lab-audience-'));
  let store: ReturnType<typeof openStore> | null = null;
  try {
    store = openStore({ dataDir });
    await store.migrate();
    const problems = new ProblemList();
    let rejected = 0;
    const fields = new Set<ImportField>();
    const noting: ContactSource = {
      name: source.name,
      rows: notingFields(source.rows, options.columns, fields),
      totalBytes: source.totalBytes,
      bytesRead: () => source.bytesRead(),
    };
    const summary = await importContacts(store, noting, {
      defaultCountry: options.defaultCountry,
      columns: options.columns,
      policy: options.policy,
      now: options.now,
      onRejected: ({ line, errors }) => {
        rejected++;
        for (const e of errors) problems.add(`${e.field === null ? '' : `${e.field}: `}${e.reason}`, line);
      },
    });
    if (rejected > 0)
      throw new LabAudienceError(
        `${rejected} row${rejected === 1 ? '' : 's'} of ${source.name} refused:\n${problems.lines(source.name).join('\n')}`,
      );
    if (summary.accepted === 0) throw new LabAudienceError(`${source.name} has no contacts`);
    const countries: Partial<Record<CountryCode, number>> = {};
    let size = 0,
      other = 0,
      optedIn = 0,
      utilityOptedIn = 0;
    for (let after = 0; ;) {
      const page = await store.listContacts(after, 1000);
      if (page.length === 0) break;
      for (const c of page) {
        after = c.id;
        size++;
        // By calling code, but +1 is not only the US: +1 416… is Canada, which the simulator does not
        // model, and Meta's US marketing pause is not for it. (+44 7911 12… is Guernsey: still +44's rules.)
        let country = c.phoneE164 === null ? null : countryOfWaId(c.phoneE164.replace(/^\+/, ''));
        const region = recipientRegion(c.phoneE164);
        if (country === 'US' && region !== null && region !== 'US') country = null;
        if (country === null) other++;
        else countries[country] = (countries[country] ?? 0) + 1;
        const consent = (await loadContactState(store, c.id)).consent;
        if (consent.marketing.status === 'granted') optedIn++;
        if (consent.utility.status === 'granted') utilityOptedIn++;
      }
    }
    if (other === size)
      throw new LabAudienceError(`${source.name}: no contact is in a country the simulator models (${Object.keys(COUNTRIES).join(', ')})`);
    return {
      size,
      countries,
      otherCountries: other,
      marketingOptIn: optedIn / size,
      utilityOptIn: utilityOptedIn / size,
      duplicates: summary.duplicates,
      hasColumn: { consent_marketing: fields.has('consent_marketing'), consent_utility: fields.has('consent_utility') },
    };
  } finally {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
