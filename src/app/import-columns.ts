import { ImportInputError } from './contact-source.js';

/** The columns an import understands; every other column becomes a contact attribute. */
export const IMPORT_FIELDS = ['phone', 'name', 'tags', 'consent_marketing', 'consent_utility'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The errors file's own column, with the reasons: ignored on import, so a fixed errors file imports as it is. */
export const IGNORED_COLUMN = 'pacer_error';

/** Which column of the file holds a field, when it is not named like the field (`phone` in "Phone Number"). */
export type ColumnMap = Partial<Record<ImportField, string>>;

/** What a column is: a field, ignored, or (null) an attribute. */
export type ColumnResolver = (column: string) => ImportField | 'ignored' | null;

/**
 * `phone=Phone Number,consent_marketing="Opt-in"`: pairs separated by commas, a column name in
 * double quotes when it holds a comma or quote (`""` for a quote). Names the pair at fault.
 */
export function parseColumnMap(text: string): ColumnMap {
  const map: ColumnMap = {};
  let i = 0;
  const fail = (why: string): never => {
    throw new ImportInputError(`--map: ${why}; write field=column pairs separated by commas, e.g. phone="Phone Number"`, 'usage');
  };
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq === -1) fail(`"${text.slice(i).trim()}" has no "="`);
    const field = text.slice(i, eq).trim().toLowerCase();
    if (!(IMPORT_FIELDS as readonly string[]).includes(field)) {
      fail(`"${field}" is not a field Pacer reads (${IMPORT_FIELDS.join(', ')}); other columns become attributes as they are named`);
    }
    let column: string;
    let j = eq + 1;
    while (text[j] === ' ') j++;
    if (text[j] === '"') {
      column = '';
      j++;
      for (;;) {
        if (j >= text.length) fail(`the quoted column for ${field} is never closed`);
        if (text[j] === '"' && text[j + 1] === '"') {
          column += '"';
          j += 2;
        } else if (text[j] === '"') break;
        else column += text[j++];
      }
      j++;
      while (text[j] === ' ') j++;
      if (j < text.length && text[j] !== ',') fail(`unexpected text after the quoted column for ${field}`);
    } else {
      const comma = text.indexOf(',', j);
      column = text.slice(j, comma === -1 ? text.length : comma).trim();
      j = comma === -1 ? text.length : comma;
    }
    if (column === '') fail(`no column named for ${field}`);
    if (map[field as ImportField] !== undefined) fail(`${field} is mapped twice`);
    map[field as ImportField] = column;
    i = j + 1;
  }
  return map;
}

/** Resolves column names, in any case, to fields; remembers each answer (a million rows ask the same few). */
export function columnResolver(map: ColumnMap): ColumnResolver {
  const mapped = new Map<string, ImportField>();
  for (const [field, column] of Object.entries(map) as Array<[ImportField, string]>) mapped.set(column.toLowerCase(), field);
  const mappedFields = new Set(mapped.values());
  const memo = new Map<string, ImportField | 'ignored' | null>();
  return (column) => {
    let answer = memo.get(column);
    if (answer === undefined) {
      const key = column.toLowerCase();
      const field = mapped.get(key) ?? IMPORT_FIELDS.find((f) => f === key && !mappedFields.has(f));
      answer = field ?? (key === IGNORED_COLUMN ? 'ignored' : null);
      memo.set(column, answer);
    }
    return answer;
  };
}

/** A CSV header against the map: no name twice, every mapped column present, a phone column found. */
export function checkHeader(columns: readonly string[], map: ColumnMap, file: string): void {
  const seen = new Set<string>();
  const names = columns.filter((c) => c !== '');
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) throw new ImportInputError(`${file}: the header names the column "${name}" twice`, 'usage');
    seen.add(key);
  }
  const has = `(it has: ${names.join(', ') || 'no names'})`;
  for (const [field, column] of Object.entries(map)) {
    if (!seen.has(column.toLowerCase())) {
      throw new ImportInputError(`--map ${field}="${column}": ${file} has no column "${column}" ${has}`, 'usage');
    }
  }
  const resolve = columnResolver(map);
  if (!names.some((n) => resolve(n) === 'phone')) {
    throw new ImportInputError(`${file}: the header row has no "phone" column ${has}; name yours with --map phone="<column>"`, 'usage');
  }
}
