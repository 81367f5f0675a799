import type { Stats } from './types.js';

/** A sample the harness refuses: the benchmark did no measurable work or computed garbage. */
export class InvalidSampleError extends Error {
  constructor(where: string, value: number) {
    super(`${where}: sample ${String(value)} is not a positive finite number; the benchmark measured nothing`);
    this.name = 'InvalidSampleError';
  }
}

export function assertValidSample(where: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidSampleError(where, value);
}

/** Median of the samples; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no samples');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarise(where: string, values: readonly number[]): Stats {
  if (values.length === 0) throw new Error(`${where}: no samples were taken`);
  values.forEach((v, i) => assertValidSample(`${where} round ${i + 1}`, v));
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), samples: [...values] };
}

/** Pacer over reference, on medians: 0.8 means Pacer does 80 % of the reference's rate. */
export function ratio(pacer: Stats, reference: Stats): number {
  return pacer.median / reference.median;
}

/** Medians of named extra numbers reported with each sample (e.g. p99 latency), keyed by name. */
export function medianExtras(perSample: ReadonlyArray<Readonly<Record<string, number>> | undefined>): Record<string, number> {
  const byName = new Map<string, number[]>();
  for (const extras of perSample) {
    for (const [k, v] of Object.entries(extras ?? {})) byName.set(k, [...(byName.get(k) ?? []), v]);
  }
  return Object.fromEntries([...byName].map(([k, vs]) => [k, median(vs)]));
}

/** Nearest-rank percentile (p in 0..100) of an unsorted list, for latency figures. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
