import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openContactSource } from '../src/adapters/import/open-contact-source.js';
import { openStore } from '../src/adapters/storage/open-store.js';
import { importContacts, type RowRejection } from '../src/app/import-contacts.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';

let dir: string;
let store: Store;
/** Every run uses fresh phone numbers, so runs share one database without seeing each other's rows. */
let nextNumber = 100_000;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-property-'));
  store = openStore({ dataDir: dir });
  await store.migrate();
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

type Spec =
  | { valid: true; style: 0 | 1 | 2; multiline: boolean; consent: 'yes' | 'no' | '' }
  | { valid: false; kind: 'short-phone' | 'no-phone' | 'bad-consent' | 'extra-field' | 'after-quote' | 'letters' };

const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({
    valid: fc.constant(true as const),
    style: fc.constantFrom(0 as const, 1 as const, 2 as const),
    multiline: fc.boolean(),
    consent: fc.constantFrom('yes' as const, 'no' as const, '' as const),
  }),
  fc.record({
    valid: fc.constant(false as const),
    kind: fc.constantFrom(
      'short-phone' as const,
      'no-phone' as const,
      'bad-consent' as const,
      'extra-field' as const,
      'after-quote' as const,
      'letters' as const,
    ),
  }),
);

function phoneText(n: number, style: 0 | 1 | 2): string {
  const digits = `7911${String(n).padStart(6, '0')}`;
  return style === 0 ? `+44${digits}` : style === 1 ? `+44 ${digits.slice(0, 4)} ${digits.slice(4)}` : `0044 ${digits}`;
}

/** One CSV record and the number of physical lines it takes. */
function csvRecord(s: Spec, n: number): { text: string; lines: number } {
  if (s.valid) {
    const name = s.multiline ? `"Name ${n}\nsecond line, with comma"` : `Name ${n}`;
    return { text: `"${phoneText(n, s.style)}",${name},${s.consent}`, lines: s.multiline ? 2 : 1 };
  }
  const text = {
    'short-phone': `+44123,Short ${n},yes`,
    'no-phone': `,Nobody ${n},no`,
    'bad-consent': `+447911${String(n).padStart(6, '0')},Unsure ${n},perhaps`,
    'extra-field': `+447911${String(n).padStart(6, '0')},Extra ${n},yes,surplus`,
    'after-quote': `+447911${String(n).padStart(6, '0')},"Quoted"tail,yes`,
    letters: `call me,Letters ${n},`,
  }[s.kind];
  return { text, lines: 1 };
}

function jsonlRecord(s: Spec, n: number): string {
  if (s.valid) return JSON.stringify({ phone: phoneText(n, s.style), name: `Name ${n}`, consent_marketing: s.consent });
  return {
    'short-phone': JSON.stringify({ phone: '+44123' }),
    'no-phone': JSON.stringify({ name: `Nobody ${n}` }),
    'bad-consent': JSON.stringify({ phone: `+447911${String(n).padStart(6, '0')}`, consent_marketing: 'perhaps' }),
    'extra-field': `{"phone": "+447911${String(n).padStart(6, '0')}",`,
    'after-quote': `["+447911${String(n).padStart(6, '0')}"]`,
    letters: JSON.stringify({ phone: 'call me' }),
  }[s.kind];
}

it('imports every valid row and reports every invalid one at its line, never throwing', { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(spec, { maxLength: 25 }),
      fc.constantFrom('csv' as const, 'jsonl' as const),
      fc.integer({ min: 1, max: 4 }),
      async (specs, format, batchRows) => {
        const numbers = specs.map(() => nextNumber++);
        const expectedBad: number[] = [];
        const expectedGood: Array<{ n: number; name: string }> = [];
        const out: string[] = [];
        let line = 1;
        if (format === 'csv') {
          out.push('phone,name,consent_marketing');
          line = 2;
        }
        specs.forEach((s, i) => {
          const n = numbers[i]!;
          if (format === 'csv') {
            const r = csvRecord(s, n);
            out.push(r.text);
            if (s.valid) expectedGood.push({ n, name: s.multiline ? `Name ${n}\nsecond line, with comma` : `Name ${n}` });
            else expectedBad.push(line);
            line += r.lines;
          } else {
            out.push(jsonlRecord(s, n));
            if (s.valid) expectedGood.push({ n, name: `Name ${n}` });
            else expectedBad.push(line);
            line += 1;
          }
        });
        const file = path.join(dir, `run.${format}`);
        writeFileSync(file, out.join('\n'));
        const rejected: RowRejection[] = [];
        const summary = await importContacts(store, await openContactSource(file, format), {
          defaultCountry: null,
          policy: DEFAULT_POLICY,
          now: 1_760_000_000_000,
          batchRows,
          onRejected: (r) => void rejected.push(r),
        });
        expect(rejected.map((r) => r.line)).toEqual(expectedBad);
        expect(rejected.every((r) => r.errors.length > 0 && r.errors.every((e) => e.reason.length > 0))).toBe(true);
        expect(summary).toMatchObject({
          accepted: expectedGood.length,
          rejected: expectedBad.length,
          created: expectedGood.length,
          duplicates: 0,
        });
        for (const good of expectedGood) {
          const contact = await store.findContact({ phoneE164: `+447911${String(good.n).padStart(6, '0')}` });
          expect(contact?.name).toBe(good.name);
        }
      },
    ),
    { numRuns: 100 },
  );
});
