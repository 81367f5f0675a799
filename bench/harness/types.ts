/** What one timed call of a side returns: operations done (the runner divides by elapsed time) or a value already in the unit. */
export type Sample =
  { ops: number; extras?: Readonly<Record<string, number>> } | { value: number; extras?: Readonly<Record<string, number>> };

export interface RunMode {
  /** Seconds-long smoke run: small inputs, few rounds. Numbers are not comparable with full runs. */
  quick: boolean;
}

/**
 * One performance figure: Pacer's side and its physical reference, measured in the same run.
 * A figure file in bench/figures default-exports one of these; the registry finds it by itself.
 */
export interface Benchmark<Ctx = unknown> {
  /** CLI name, kebab-case: `npm run bench -- <name>`. */
  name: string;
  /** Which row of the figures table (see catalogue.ts) this benchmark fills. */
  row: string;
  /** What is measured, as it reads in the table. */
  figure: string;
  /** What the reference side does. */
  against: string;
  /** The target, as written in the issue. */
  target: string;
  /** Unit of one sample, e.g. "calls/s" or "ms". */
  unit: string;
  /** Default true: ops/s-style figures. False for latencies and memory. */
  higherIsBetter?: boolean;
  /**
   * At most this many recorded rounds and warm-up rounds, for figures whose one sample takes many
   * seconds (a million rows); a quick run then takes one round and no warm-up. `--rounds` and
   * `--warmup` on the command line still win.
   */
  maxRounds?: number;
  maxWarmup?: number;
  setup(mode: RunMode): Ctx | Promise<Ctx>;
  pacer(ctx: Ctx): Sample | Promise<Sample>;
  reference(ctx: Ctx): Sample | Promise<Sample>;
  /** Untimed, before every sample of either side: bring shared state back to a steady point (e.g. let a simulator's clock run on). */
  prepare?(ctx: Ctx): void | Promise<void>;
  teardown?(ctx: Ctx): void | Promise<void>;
  /** Whether the measured result meets the target; null when the target cannot be judged on this run. */
  meets?(result: MeasuredSides): boolean | null;
}

export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export interface MeasuredSides {
  pacer: Stats;
  reference: Stats;
  /** median(pacer) / median(reference). */
  ratio: number;
  /** Medians of the extra numbers a side reported (e.g. p99 latency), per side. */
  extras: { pacer: Record<string, number>; reference: Record<string, number> };
}

export interface Machine {
  cpu: string;
  cpus: number;
  node: string;
  platform: string;
}

export interface BenchmarkResult extends MeasuredSides {
  name: string;
  row: string;
  figure: string;
  against: string;
  target: string;
  unit: string;
  higherIsBetter: boolean;
  meetsTarget: boolean | null;
  rounds: number;
  warmup: number;
  quick: boolean;
  date: string;
  machine: Machine;
  /** 1-minute load average when the run started: a busy machine explains wide min–max spreads. */
  loadAverage: number;
}

export interface ResultsFile {
  /** Date, machine and load of the latest run that wrote this file. */
  date: string;
  machine: Machine;
  loadAverage: number;
  results: BenchmarkResult[];
}
