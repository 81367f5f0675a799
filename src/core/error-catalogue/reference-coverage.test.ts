import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, findErrorByCode } from './index.js';

/**
 * The team's Cloud API reference is the source of truth for which codes exist: every code in its
 * section 1 (tables, bold On-Premises codes, codes noted as "also exists") must have an entry. The
 * codes it lists are kept in `reference-codes.json`, so the check runs on a bare clone; where the
 * reference sits beside the repository (as in CI), the list is checked against it, so a code added
 * there fails until the list, and then the catalogue, cover it.
 */
const REFERENCE = path.resolve(import.meta.dirname, '../../../../shared/reference/meta-cloud-api.md');
const CODES = path.resolve(import.meta.dirname, 'reference-codes.json');

interface ReferenceCodes {
  singles: Set<number>;
  ranges: { from: number; to: number; named: number[] }[];
}

function sectionOne(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('## 1.'));
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## 2.'));
  if (start === -1 || end === -1) throw new Error(`${REFERENCE}: cannot find section 1 (## 1. ... ## 2.)`);
  return lines.slice(start, end);
}

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
const isSeparator = (row: string): boolean => /^\|[\s|:-]+\|$/.test(row.trim());

function parseReference(markdown: string): ReferenceCodes {
  const lines = sectionOne(markdown);
  const found: ReferenceCodes = { singles: new Set(), ranges: [] };
  lines.forEach((line, i) => {
    const isTableRow = line.trim().startsWith('|');
    if (isTableRow) {
      // Skip the header row (followed by the separator) and the separator itself.
      if (isSeparator(line) || (lines[i + 1] !== undefined && isSeparator(lines[i + 1] ?? ''))) return;
      const [first = '', meaning = ''] = cells(line);
      for (const token of first
        .replace(/\*/g, '')
        .split('/')
        .map((t) => t.trim())) {
        const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(token);
        if (range) {
          const from = Number(range[1]);
          const to = Number(range[2]);
          const named = [...meaning.matchAll(/\b(\d{3,})\b/g)].map((m) => Number(m[1])).filter((c) => c >= from && c <= to);
          found.ranges.push({ from, to, named });
        } else if (/^\d+$/.test(token)) {
          found.singles.add(Number(token));
        } else {
          throw new Error(`${REFERENCE}: unexpected code cell "${first}" in row: ${line}`);
        }
      }
      return;
    }
    for (const bold of line.matchAll(/\*\*(\d+)\*\*/g)) found.singles.add(Number(bold[1]));
    for (const noted of line.matchAll(/\b(\d{3,})\s+also exists/g)) found.singles.add(Number(noted[1]));
  });
  return found;
}

const listed = JSON.parse(readFileSync(CODES, 'utf8')) as { singles: number[]; ranges: ReferenceCodes['ranges'] };
const reference: ReferenceCodes = { singles: new Set(listed.singles), ranges: listed.ranges };
const exactCodes = new Set(ERROR_CATALOGUE.filter((e) => e.codeTo === undefined).map((e) => e.code));

describe('codes listed in the Cloud API reference, section 1', () => {
  it.runIf(existsSync(REFERENCE))('reference-codes.json lists exactly the codes of the reference document', () => {
    const parsed = parseReference(readFileSync(REFERENCE, 'utf8'));
    const fresh = { singles: [...parsed.singles].sort((a, b) => a - b), ranges: parsed.ranges };
    expect(fresh, `write this to ${CODES}:\n${JSON.stringify(fresh, null, 2)}`).toEqual(listed);
  });

  it('parses a plausible number of codes (guards the parser itself)', () => {
    expect(reference.singles.size).toBeGreaterThan(60);
    expect(reference.singles).toContain(131049);
    expect(reference.singles).toContain(1026);
    expect(reference.singles).toContain(134103);
    expect(reference.ranges.map((r) => `${r.from}-${r.to}`)).toEqual(expect.arrayContaining(['200-299', '133000-133016']));
  });

  it('every single code has its own entry', () => {
    const missing = [...reference.singles].filter((code) => !exactCodes.has(code));
    expect(missing, `codes without an entry: ${missing.join(', ')}`).toEqual([]);
  });

  it('ranges whose codes the reference names get one entry per named code; other ranges get a range entry', () => {
    for (const range of reference.ranges) {
      if (range.named.length > 0) {
        const missing = range.named.filter((code) => !exactCodes.has(code));
        expect(missing, `${range.from}-${range.to}: named codes without an entry`).toEqual([]);
      } else {
        const entry = ERROR_CATALOGUE.find((e) => e.code === range.from && e.codeTo === range.to);
        expect(entry, `${range.from}-${range.to} needs a range entry`).toBeDefined();
        expect(findErrorByCode(range.from)).toBe(entry);
        expect(findErrorByCode(range.to)).toBe(entry);
      }
    }
  });

  it('the catalogue invents no codes the reference does not list', () => {
    const listed = new Set([...reference.singles, ...reference.ranges.flatMap((r) => r.named)]);
    const extra = ERROR_CATALOGUE.filter((e) =>
      e.codeTo === undefined ? !listed.has(e.code) : !reference.ranges.some((r) => r.from === e.code && r.to === e.codeTo),
    );
    expect(extra.map((e) => e.code)).toEqual([]);
  });

  it('names 133000-133016 individually (each documented registration code)', () => {
    const registration = reference.ranges.find((r) => r.from === 133000);
    expect(registration?.named).toEqual(expect.arrayContaining([133000, 133005, 133006, 133008, 133009, 133010, 133015, 133016]));
  });
});
