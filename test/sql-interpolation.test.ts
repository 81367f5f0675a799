import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No SQL is built from input: values travel as $n parameters. A template literal that reads like SQL
// may interpolate only a module constant (UPPER_CASE, itself SQL text) or a placeholder builder; any
// other interpolation must be reviewed and listed here with the reason it cannot carry input.
const SQL_DIR = path.resolve(import.meta.dirname, '../src/adapters/storage/sql');
const SQLISH = /\b(SELECT|INSERT|UPDATE|DELETE|WHERE|VALUES|FROM|SET)\b/;
const CONSTANT = /^[A-Z][A-Z0-9_]*$/;
/**
 * Builders of `$n` placeholders: they emit numbers and punctuation only. `bind` is a `binder()` of
 * values.ts, which appends its value to the parameters and emits that value's `$n`.
 */
const PLACEHOLDERS = /^(valuesList|inList|bind)\(/;
const REVIEWED: Record<string, string> = {
  'outbox-segment.ts: intent': "SEGMENT_INSERT() is called with '$6' or the fixed call pacer_row_intent(c.name, c.attributes)",
  'outbox-segment.ts: pageMatch': 'segmentSql().match(): the segment as fixed SQL, every value a $n placeholder',
  'segment-contacts.ts: match': 'segmentSql().match(): the segment as fixed SQL, every value a $n placeholder',
  'outbox-claim.ts: status': "dueOf() and firstDue() are called with the literals 'queued' and 'held' only",
  'outbox-claim.ts: only': "fromNumber(): '' or a fixed jsonValue() condition on the row's number, compared with a $n placeholder",
  "outbox-claim.ts: dueOf('queued', only)": 'a constant status and the fixed number condition',
  "outbox-claim.ts: dueOf('held', only)": 'a constant status and the fixed number condition',
  'outbox-claim.ts: dueIds(only)': 'dueOf() twice: constant statuses and the fixed number condition',
  "outbox-claim.ts: firstDue('queued', only)": 'a constant status and the fixed number condition',
  "outbox-claim.ts: firstDue('held', only)": 'a constant status and the fixed number condition',
  'campaign-cancel.ts: list': 'placeholders only ($3, $4, …), one per error code',
  'contact-keys.ts: column': 'a column name from the fixed COLUMNS list',
  'contact-keys.ts: others': "the other fixed COLUMNS' names, each `IS NOT NULL`",
  'contacts.ts: column': 'picked from a fixed map of key kinds to column names',
  'contact-update.ts: lock': "the capability flag rowLock: ' FOR UPDATE' or ''",
  'contacts-tagged.ts: match': 'segmentSql().match(): the tag condition as fixed SQL, the tag a $n placeholder',
  'contacts-tagged.ts: params.length': 'a placeholder number',
  "contacts-upsert.ts: terms.join(' OR ')": 'each term is a fixed identity column and `IN ($n, ...)` placeholders',
  'delivery-funnel.ts: where': 'FUNNEL() is called with two literal conditions, the campaign id as $1',
  'failure-series.ts: campaign': "SERIES() is called with '' or a literal ` AND campaign_id = $3`",
  'outbox-list.ts: KIND[f.kind]': 'a fixed condition per filter kind, from a constant table',
  'diagnosis-scope.ts: campaignFilter': 'empty, or a literal condition with a $n placeholder',
  'diagnosis-audience.ts: cte': 'scopeSql(): fixed SQL with $n placeholders',
  'diagnosis-sends.ts: cte': 'scopeSql(): fixed SQL with $n placeholders',
  'diagnosis-usage.ts: cte': 'scopeSql(): fixed SQL with $n placeholders',
  'diagnosis-sends.ts: next': 'a placeholder number',
  'diagnosis-numbers.ts: cte': 'scopeSql(): fixed SQL with $n placeholders',
  'diagnosis-numbers.ts: numbered': "a fixed CTE naming each row's number",
  'diagnosis-usage.ts: next': 'a placeholder number',
  'diagnosis-usage.ts: capList': "'NULL' or an inList() of placeholders",
  'diagnosis-usage.ts: column': "typed 'template_id' | 'campaign_id', passed as literals",
  'diagnosis-audience.ts: inbound': 'jsonValue() of a literal path it validates, on a fixed column',
  'diagnosis-audience.ts: stoppedAt': 'jsonValue() of a literal path it validates, on a fixed column',
  'diagnosis-audience.ts: stopType': 'jsonValue() of a literal path it validates, on a fixed column',
  'diagnosis-audience.ts: stopDetail': 'jsonValue() of a literal path it validates, on a fixed column',
  'diagnosis-usage.ts: stoppedAt': 'jsonValue() of a literal path it validates, on a fixed column',
  'outbox-segment.ts: match': 'segmentSql(): fixed conditions with bind() placeholders',
  'outbox-segment.ts: ownMatch': 'segmentSql() and shareSql(): fixed conditions with bind() placeholders',
  'outbox-segment.ts: plain.plain(own)': 'plainIntentSql(): fixed JSON conditions, every path, name and length a bind() placeholder',
  'outbox-segment.ts: plain.columns(own)': 'plainIntentSql(): fixed JSON reads, every path and name a bind() placeholder, fixed aliases',
  'outbox-segment.ts: plain.fence': 'plainIntentSql(): one of two fixed LIMIT/OFFSET clauses',
  'outbox-segment.ts: page': 'the subquery above: PAGE_CONTACTS, segmentSql() and the plain reads, every value a bind() placeholder',
  'segment-counts.ts: flags': 'CASE flags around segmentSql() conditions (fixed SQL with bind() placeholders), aliased by a constant list',
  "segment-counts.ts: STATES.map((r) => `sum(hit * ${r}) AS ${r}`).join(', ')": 'sums over the names of a constant list',
  'event-deliveries.ts: conditions': "'' or ` WHERE ` and fixed conditions, each compared with a bind() placeholder",
  "event-deliveries.ts: where.join(' AND ')": 'fixed conditions, each compared with a bind() placeholder',
  'event-settle.ts: rows': 'typedRows(): cast placeholders only',
  'event-settle.ts: lanes': 'laneRows(): cast placeholders only',
  'segment-where.ts: typed': 'one of three fixed type conditions with bind() placeholders',
  'outbox-batch-transitions.ts: rows': 'castValuesList(): cast placeholders only',
  'outbox-settlement.ts: rows': 'castValuesList(): cast placeholders only',
  'outbox-settlement.ts: RETURNING_SETTLED[caps.jsonRead]':
    'a fixed RETURNING list per JSON reader: constant column names and jsonValue() reads of literal paths',
  'outbox-settlement.ts: returning': 'perReader() passes only RETURNING_SETTLED, the fixed RETURNING list per JSON reader',
  'message-events.ts: rows': 'valuesList(): placeholders only',
  'contact-state.ts: stateRows(tx.caps, chunk.length, 2)': 'stateRows(): cast placeholders only, the JSON type from a capability flag',
  "contacts-upsert.ts: rows.join(', ')": 'each row a list of CAST($n AS <fixed type>) placeholders',
};

function interpolations(file: string): string[] {
  const text = readFileSync(path.join(SQL_DIR, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      const literal = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (SQLISH.test(literal)) for (const span of node.templateSpans) found.push(span.expression.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('SQL modules', () => {
  const files = readdirSync(SQL_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const all = files.flatMap((file) => interpolations(file).map((expression) => ({ file, expression })));

  it('interpolate no value into SQL text: only constants, placeholder lists, or reviewed fixed names', () => {
    expect(files.length).toBeGreaterThan(10);
    const unreviewed = all.filter(
      ({ file, expression }) =>
        !CONSTANT.test(expression) && !PLACEHOLDERS.test(expression) && REVIEWED[`${file}: ${expression}`] === undefined,
    );
    expect(unreviewed.map(({ file, expression }) => `${file}: \${${expression}}`)).toEqual([]);
  });

  it('keeps the reviewed list current (every entry still exists)', () => {
    const present = new Set(all.map(({ file, expression }) => `${file}: ${expression}`));
    expect(Object.keys(REVIEWED).filter((k) => !present.has(k))).toEqual([]);
  });

  it('would catch a value spliced into a query', () => {
    const source = ts.createSourceFile(
      'x.ts',
      "const q = `SELECT * FROM contacts WHERE name = '${input.name}'`;",
      ts.ScriptTarget.Latest,
      true,
    );
    const spans: string[] = [];
    source.forEachChild(function walk(n: ts.Node): void {
      if (ts.isTemplateExpression(n)) spans.push(...n.templateSpans.map((s) => s.expression.getText(source)));
      n.forEachChild(walk);
    });
    expect(spans).toEqual(['input.name']);
    expect(CONSTANT.test('input.name') || PLACEHOLDERS.test('input.name')).toBe(false);
  });
});
