import { assertValidSample, medianExtras, ratio, summarise } from './stats.js';
import type { Benchmark, MeasuredSides, RunMode, Sample } from './types.js';

export type Side = 'pacer' | 'reference';

export interface RunnerOptions extends RunMode {
  /** Recorded rounds; each round times Pacer once, then the reference once. */
  rounds: number;
  /** Unrecorded rounds first, alternating the same way, so both sides run on warmed-up code. */
  warmup: number;
  /** High-resolution milliseconds; injected so tests control time. */
  clock?: () => number;
  /** Called before every timed sample (the CLI passes a forced GC, so one side's garbage is not billed to the other). */
  beforeSample?: () => void;
  onSample?: (side: Side, round: number, value: number, warm: boolean) => void;
}

/**
 * Measures both sides in the same process, alternating Pacer and reference (A, B, A, B...) so drift
 * in CPU frequency, GC or neighbours affects both alike. Throws if any sample is NaN, infinite or
 * not positive: a benchmark that measured nothing must fail loudly, not report a number.
 */
export async function runBenchmark<Ctx>(bench: Benchmark<Ctx>, options: RunnerOptions): Promise<MeasuredSides> {
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error(`rounds must be a positive integer, got ${options.rounds}`);
  if (!Number.isInteger(options.warmup) || options.warmup < 0)
    throw new Error(`warmup must be a non-negative integer, got ${options.warmup}`);
  const clock = options.clock ?? (() => performance.now());
  const ctx = await bench.setup({ quick: options.quick });
  try {
    const values: Record<Side, number[]> = { pacer: [], reference: [] };
    const extras: Record<Side, Array<Readonly<Record<string, number>> | undefined>> = { pacer: [], reference: [] };
    const sample = async (side: Side, round: number, warm: boolean): Promise<void> => {
      await bench.prepare?.(ctx);
      options.beforeSample?.();
      const start = clock();
      const s: Sample = side === 'pacer' ? await bench.pacer(ctx) : await bench.reference(ctx);
      const elapsedMs = clock() - start;
      const value = 'ops' in s ? s.ops / (elapsedMs / 1000) : s.value;
      assertValidSample(`${bench.name} ${side}${warm ? ' warm-up' : ''} round ${round}`, value);
      options.onSample?.(side, round, value, warm);
      if (warm) return;
      values[side].push(value);
      extras[side].push(s.extras);
    };
    for (let round = 1; round <= options.warmup + options.rounds; round++) {
      const warm = round <= options.warmup;
      const n = warm ? round : round - options.warmup;
      await sample('pacer', n, warm);
      await sample('reference', n, warm);
    }
    const pacer = summarise(`${bench.name} pacer`, values.pacer);
    const reference = summarise(`${bench.name} reference`, values.reference);
    return {
      pacer,
      reference,
      ratio: ratio(pacer, reference),
      extras: { pacer: medianExtras(extras.pacer), reference: medianExtras(extras.reference) },
    };
  } finally {
    await bench.teardown?.(ctx);
  }
}
