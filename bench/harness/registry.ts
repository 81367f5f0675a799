import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOGUE } from './catalogue.js';
import type { Benchmark } from './types.js';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TEXT_FIELDS = ['name', 'row', 'figure', 'against', 'target', 'unit'] as const;
const FUNCTION_FIELDS = ['setup', 'pacer', 'reference'] as const;

/** Checks that a figure file's default export is a usable benchmark; the message names the file and field. */
export function validateBenchmark(value: unknown, file: string): Benchmark {
  if (typeof value !== 'object' || value === null) throw new Error(`${file}: default export must be a benchmark object`);
  const rec = value as Record<string, unknown>;
  for (const f of TEXT_FIELDS) {
    if (typeof rec[f] !== 'string' || rec[f] === '') throw new Error(`${file}: field "${f}" must be a non-empty string`);
  }
  for (const f of FUNCTION_FIELDS) {
    if (typeof rec[f] !== 'function') throw new Error(`${file}: field "${f}" must be a function`);
  }
  for (const f of ['prepare', 'teardown', 'meets'] as const) {
    if (rec[f] !== undefined && typeof rec[f] !== 'function') throw new Error(`${file}: field "${f}" must be a function`);
  }
  if (!KEBAB.test(rec.name as string)) throw new Error(`${file}: name "${String(rec.name)}" must be kebab-case`);
  if (!CATALOGUE.some((r) => r.id === rec.row)) {
    throw new Error(`${file}: row "${String(rec.row)}" is not in bench/harness/catalogue.ts (${CATALOGUE.map((r) => r.id).join(', ')})`);
  }
  return value as Benchmark;
}

/** Every benchmark in `dir`: each `*.ts` file (tests excluded) default-exports one. Sorted by file name. */
export async function loadBenchmarks(dir: string): Promise<Benchmark[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')).sort();
  const benches: Benchmark[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: unknown };
    benches.push(validateBenchmark(mod.default, path.join(path.basename(dir), file)));
  }
  const seen = new Set<string>();
  for (const b of benches) {
    if (seen.has(b.name)) throw new Error(`two benchmarks are named "${b.name}"`);
    seen.add(b.name);
  }
  return benches;
}

/** The benchmarks the user named, in the order named; all of them when none is named. */
export function selectBenchmarks(all: readonly Benchmark[], names: readonly string[]): Benchmark[] {
  if (names.length === 0) return [...all];
  const unknown = names.filter((n) => !all.some((b) => b.name === n));
  if (unknown.length > 0) {
    throw new Error(
      `unknown benchmark${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; known: ${all.map((b) => b.name).join(', ')}`,
    );
  }
  return [...new Set(names)].map((n) => all.find((b) => b.name === n)!);
}
