import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CATALOGUE } from './catalogue.js';
import type { Benchmark, BenchmarkResult, Machine, MeasuredSides, ResultsFile } from './types.js';

const machineSchema = z.object({ cpu: z.string(), cpus: z.number(), node: z.string(), platform: z.string() });
const statsSchema = z.object({ median: z.number(), min: z.number(), max: z.number(), samples: z.array(z.number()) });
const resultSchema = z.object({
  name: z.string(),
  row: z.string(),
  figure: z.string(),
  against: z.string(),
  target: z.string(),
  unit: z.string(),
  higherIsBetter: z.boolean(),
  meetsTarget: z.boolean().nullable(),
  rounds: z.number(),
  warmup: z.number(),
  quick: z.boolean(),
  date: z.string(),
  machine: machineSchema,
  loadAverage: z.number(),
  pacer: statsSchema,
  reference: statsSchema,
  ratio: z.number(),
  extras: z.object({ pacer: z.record(z.string(), z.number()), reference: z.record(z.string(), z.number()) }),
});
const fileSchema = z.object({ date: z.string(), machine: machineSchema, loadAverage: z.number(), results: z.array(resultSchema) });

export interface RunInfo {
  rounds: number;
  warmup: number;
  quick: boolean;
  date: string;
  machine: Machine;
  loadAverage: number;
}

export function toResult(bench: Benchmark, sides: MeasuredSides, run: RunInfo): BenchmarkResult {
  return {
    name: bench.name,
    row: bench.row,
    figure: bench.figure,
    against: bench.against,
    target: bench.target,
    unit: bench.unit,
    higherIsBetter: bench.higherIsBetter ?? true,
    meetsTarget: bench.meets?.(sides) ?? null,
    ...sides,
    ...run,
  };
}

/** The committed results, or null when there are none yet. A malformed file is an error naming the field. */
export async function readResults(file: string): Promise<ResultsFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Fresh results replace earlier ones of the same name; others are kept, so running one benchmark does not erase the rest. */
export function mergeResults(
  previous: ResultsFile | null,
  fresh: readonly BenchmarkResult[],
  run: Pick<RunInfo, 'date' | 'machine' | 'loadAverage'>,
): ResultsFile {
  const byName = new Map((previous?.results ?? []).map((r) => [r.name, r]));
  for (const r of fresh) byName.set(r.name, r);
  const rowIndex = (id: string): number => {
    const i = CATALOGUE.findIndex((r) => r.id === id);
    return i === -1 ? CATALOGUE.length : i;
  };
  const results = [...byName.values()].sort((a, b) => rowIndex(a.row) - rowIndex(b.row) || a.name.localeCompare(b.name));
  return { date: run.date, machine: run.machine, loadAverage: run.loadAverage, results };
}

/** Writes through a temporary file and a rename, so an interrupted run never leaves half a file. */
export async function writeResults(file: string, data: ResultsFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`);
  await rename(tmp, file);
}
