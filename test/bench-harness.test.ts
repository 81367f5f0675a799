import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decide } from '../src/core/decide.js';
import { buildDecideCases } from '../bench/fixtures/decide-inputs.js';
import { lateness } from '../bench/fixtures/lateness.js';
import { CATALOGUE } from '../bench/harness/catalogue.js';
import { END_MARKER, renderFigures, replaceBetweenMarkers, START_MARKER } from '../bench/harness/markdown.js';
import { loadBenchmarks, selectBenchmarks, validateBenchmark } from '../bench/harness/registry.js';
import { mergeResults, readResults, toResult, writeResults } from '../bench/harness/results-file.js';
import { runBenchmark, type Side } from '../bench/harness/runner.js';
import { InvalidSampleError, median, percentile, ratio, summarise } from '../bench/harness/stats.js';
import type { Benchmark, Machine, Sample } from '../bench/harness/types.js';

const MACHINE: Machine = { cpu: 'Test CPU', cpus: 4, node: 'v20.0.0', platform: 'linux-x64' };
const FIGURES = path.join(import.meta.dirname, '..', 'bench', 'figures');

/** A benchmark whose sides advance a fake clock by fixed amounts and log the order they ran in. */
function fakeBenchmark(pacerMs: number[], referenceMs: number[], ops = 1000) {
  let now = 0;
  const calls: Side[] = [];
  const events: string[] = [];
  const step = (side: Side, list: number[]): Sample => {
    calls.push(side);
    now += list[(calls.filter((c) => c === side).length - 1) % list.length]!;
    return { ops, extras: { p99: side === 'pacer' ? 2 : 1 } };
  };
  const bench: Benchmark<{ quick: boolean }> = {
    name: 'fake',
    row: 'decide',
    figure: 'fake',
    against: 'fake',
    target: 'any',
    unit: 'ops/s',
    setup: (mode) => {
      events.push(`setup quick=${mode.quick}`);
      return { quick: mode.quick };
    },
    prepare: () => {
      events.push('prepare');
      now += 1_000; // untimed: must not show in any sample
    },
    pacer: () => step('pacer', pacerMs),
    reference: () => step('reference', referenceMs),
    teardown: () => {
      events.push('teardown');
    },
  };
  return { bench, calls, events, clock: () => now };
}

describe('stats', () => {
  it('takes the middle sample, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('summarises median, min and max without reordering the samples', () => {
    expect(summarise('x', [30, 10, 20, 50])).toEqual({ median: 25, min: 10, max: 50, samples: [30, 10, 20, 50] });
  });

  it('gives the ratio of Pacer to reference on medians', () => {
    expect(ratio(summarise('p', [80, 90, 70]), summarise('r', [100, 100, 200]))).toBeCloseTo(0.8);
  });

  it('rejects NaN, infinite, zero, negative and missing samples, naming the round', () => {
    expect(() => summarise('decide pacer', [1, Number.NaN])).toThrow(/decide pacer round 2: sample NaN/);
    expect(() => summarise('x', [Number.POSITIVE_INFINITY])).toThrow(InvalidSampleError);
    expect(() => summarise('x', [0])).toThrow(InvalidSampleError);
    expect(() => summarise('x', [-3])).toThrow(InvalidSampleError);
    expect(() => summarise('x', [])).toThrow(/no samples/);
  });

  it('computes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([3], 99)).toBe(3);
  });
});

describe('runner', () => {
  it('alternates Pacer and reference, warm-up rounds first, prepares untimed, and times each sample', async () => {
    const fake = fakeBenchmark([10, 20, 10, 40, 10], [5]);
    const result = await runBenchmark(fake.bench, { quick: true, rounds: 3, warmup: 2, clock: fake.clock });
    expect(fake.calls).toEqual([
      'pacer',
      'reference',
      'pacer',
      'reference',
      'pacer',
      'reference',
      'pacer',
      'reference',
      'pacer',
      'reference',
    ]);
    expect(fake.events).toEqual(['setup quick=true', ...Array<string>(10).fill('prepare'), 'teardown']);
    // Warm-up took the first two pacer durations (10, 20); recorded rounds took 10, 40, 10 ms for 1000 ops.
    expect(result.pacer).toEqual({ median: 100_000, min: 25_000, max: 100_000, samples: [100_000, 25_000, 100_000] });
    expect(result.reference.median).toBe(200_000);
    expect(result.ratio).toBe(0.5);
    expect(result.extras).toEqual({ pacer: { p99: 2 }, reference: { p99: 1 } });
  });

  it('takes values reported directly (latencies) as they are', async () => {
    const bench: Benchmark<null> = {
      name: 'latency',
      row: 'retry-wakeup',
      figure: 'f',
      against: 'a',
      target: 't',
      unit: 'ms',
      higherIsBetter: false,
      setup: () => null,
      pacer: () => ({ value: 12 }),
      reference: () => ({ value: 4 }),
    };
    const result = await runBenchmark(bench, { quick: true, rounds: 2, warmup: 0 });
    expect(result.pacer.median).toBe(12);
    expect(result.ratio).toBe(3);
  });

  it('fails on a NaN sample and still tears down', async () => {
    const events: string[] = [];
    const bench: Benchmark<null> = {
      name: 'broken',
      row: 'decide',
      figure: 'f',
      against: 'a',
      target: 't',
      unit: 'ms',
      setup: () => null,
      pacer: () => ({ value: Number.NaN }),
      reference: () => ({ value: 1 }),
      teardown: () => {
        events.push('teardown');
      },
    };
    await expect(runBenchmark(bench, { quick: true, rounds: 3, warmup: 1 })).rejects.toThrow(/broken pacer warm-up round 1: sample NaN/);
    expect(events).toEqual(['teardown']);
  });

  it('fails when a side did no work', async () => {
    const fake = fakeBenchmark([10], [10], 0);
    await expect(runBenchmark(fake.bench, { quick: false, rounds: 2, warmup: 0, clock: fake.clock })).rejects.toThrow(InvalidSampleError);
  });

  it('fails when no time passed, instead of reporting an infinite rate', async () => {
    const fake = fakeBenchmark([0], [0]);
    await expect(runBenchmark(fake.bench, { quick: false, rounds: 1, warmup: 0, clock: fake.clock })).rejects.toThrow(/Infinity/);
  });

  it('refuses a run with no recorded rounds', async () => {
    const fake = fakeBenchmark([1], [1]);
    await expect(runBenchmark(fake.bench, { quick: true, rounds: 0, warmup: 1 })).rejects.toThrow(/rounds must be a positive integer/);
  });
});

describe('registry', () => {
  it('loads every figure file, each with a unique name and a catalogue row', async () => {
    const all = await loadBenchmarks(FIGURES);
    expect(all.map((b) => b.name)).toEqual(
      expect.arrayContaining(['decide', 'reduce-contact', 'status-events-in-order', 'status-events-shuffled']),
    );
    for (const b of all) expect(CATALOGUE.map((r) => r.id)).toContain(b.row);
  });

  it('selects named benchmarks in the order given, or all, and names the unknown ones', async () => {
    const all = await loadBenchmarks(FIGURES);
    expect(selectBenchmarks(all, ['reduce-contact', 'decide']).map((b) => b.name)).toEqual(['reduce-contact', 'decide']);
    expect(selectBenchmarks(all, [])).toHaveLength(all.length);
    expect(() => selectBenchmarks(all, ['decide', 'nope'])).toThrow(/unknown benchmark: nope; known: .*decide/);
  });

  it('says which field of which file is wrong', () => {
    const ok = fakeBenchmark([1], [1]).bench;
    expect(validateBenchmark(ok, 'ok.ts')).toBe(ok);
    expect(() => validateBenchmark({ ...ok, unit: '' }, 'a.ts')).toThrow('a.ts: field "unit" must be a non-empty string');
    expect(() => validateBenchmark({ ...ok, pacer: 3 }, 'b.ts')).toThrow('b.ts: field "pacer" must be a function');
    expect(() => validateBenchmark({ ...ok, row: 'nowhere' }, 'c.ts')).toThrow(/c.ts: row "nowhere" is not in/);
    expect(() => validateBenchmark({ ...ok, name: 'Not Kebab' }, 'd.ts')).toThrow(/kebab-case/);
    expect(() => validateBenchmark(undefined, 'e.ts')).toThrow('e.ts: default export must be a benchmark object');
  });
});

describe('results and report', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  const measured = async (name: string, date: string, machine = MACHINE) => {
    const fake = fakeBenchmark([10], [5]);
    const bench: Benchmark<{ quick: boolean }> = { ...fake.bench, name, meets: ({ pacer }) => pacer.median >= 1_000_000 };
    const sides = await runBenchmark(bench, { quick: false, rounds: 3, warmup: 0, clock: fake.clock });
    return toResult(bench, sides, { rounds: 3, warmup: 0, quick: false, date, machine, loadAverage: 0.5 });
  };

  it('replaces results of the benchmarks just run and keeps the others', async () => {
    const first = mergeResults(null, [await measured('a', '2026-01-01T00:00:00Z'), await measured('b', '2026-01-01T00:00:00Z')], {
      date: '2026-01-01T00:00:00Z',
      machine: MACHINE,
      loadAverage: 0.5,
    });
    const second = mergeResults(first, [await measured('b', '2026-02-01T00:00:00Z')], {
      date: '2026-02-01T00:00:00Z',
      machine: MACHINE,
      loadAverage: 0.5,
    });
    expect(second.results.map((r) => [r.name, r.date])).toEqual([
      ['a', '2026-01-01T00:00:00Z'],
      ['b', '2026-02-01T00:00:00Z'],
    ]);
    expect(second.date).toBe('2026-02-01T00:00:00Z');
  });

  it('round-trips the results file and rejects a malformed one by field', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pacer-bench-'));
    dirs.push(dir);
    const file = path.join(dir, 'results', 'latest.json');
    expect(await readResults(file)).toBeNull();
    const data = mergeResults(null, [await measured('a', '2026-01-01T00:00:00Z')], {
      date: '2026-01-01T00:00:00Z',
      machine: MACHINE,
      loadAverage: 0.5,
    });
    await writeResults(file, data);
    expect(await readResults(file)).toEqual(data);
    const broken = JSON.parse(await readFile(file, 'utf8')) as { results: Array<{ pacer: unknown }> };
    broken.results[0]!.pacer = 'fast';
    await writeResults(file, broken as unknown as typeof data);
    await expect(readResults(file)).rejects.toThrow(/results\.0\.pacer/);
  });

  it('renders every catalogue row, measured or not, with machine, stats, ratio and verdict', async () => {
    const other: Machine = { ...MACHINE, cpu: 'Other CPU' };
    const data = mergeResults(
      null,
      [await measured('decide', '2026-03-04T05:06:07Z'), await measured('old', '2026-01-01T00:00:00Z', other)],
      { date: '2026-03-04T05:06:07Z', machine: MACHINE, loadAverage: 0.5 },
    );
    const md = renderFigures(data);
    expect(md).toContain('Last run: 2026-03-04 on Test CPU, 4 CPUs, Node v20.0.0, linux-x64; 1-minute load average at start 0.5.');
    expect(md).toContain(
      '| fake (`decide`) | fake | any | 100,000 ops/s (100,000–100,000); p99 2 | 200,000 ops/s (200,000–200,000); p99 1 | 50 % | **no** |',
    );
    expect(md).toContain('¹ `old` was measured on 2026-01-01 on Other CPU');
    const unmeasured = CATALOGUE.filter((r) => r.id !== 'decide');
    for (const row of unmeasured)
      expect(md).toContain(`| ${row.figure.replaceAll('|', '\\|')} | ${row.against} | ${row.target} | not yet measured |`);
  });

  it('rewrites only the text between the markers', () => {
    const doc = `# Title\n\nprose\n\n${START_MARKER}\nold table\n${END_MARKER}\n\nmore prose\n`;
    const once = replaceBetweenMarkers(doc, 'new table');
    expect(once).toBe(`# Title\n\nprose\n\n${START_MARKER}\nnew table\n${END_MARKER}\n\nmore prose\n`);
    expect(replaceBetweenMarkers(once, 'new table')).toBe(once);
    expect(() => replaceBetweenMarkers('# no markers', 'x', 'docs/performance.md')).toThrow(
      /docs\/performance.md: the generated section needs/,
    );
  });
});

describe('lateness', () => {
  it('summarises how late rows were claimed by nearest rank, and refuses a row claimed early', () => {
    const late = Array.from({ length: 200 }, (_, i) => i * 5); // 0, 5, ..., 995 ms
    expect(lateness(late)).toEqual({ count: 200, p50: 495, p99: 985, max: 995 });
    expect(lateness([7])).toEqual({ count: 1, p50: 7, p99: 7, max: 7 });
    expect(() => lateness([3, -2])).toThrow('a row was claimed 2 ms before it fell due');
    expect(() => lateness([])).toThrow('lateness of no rows');
  });
});

describe('figures', () => {
  it('feeds decide inputs that reach every kind of decision', () => {
    const kinds = new Set(buildDecideCases().map((c) => decide(c.state, c.intent, c.now, c.policy).kind));
    expect([...kinds].sort()).toEqual(['defer', 'hold', 'send', 'skip']);
  });

  it('every figure runs in quick mode and yields positive numbers for both sides', async () => {
    for (const bench of await loadBenchmarks(FIGURES)) {
      const sides = await runBenchmark(bench, { quick: true, rounds: 1, warmup: 0 });
      expect(sides.pacer.median, bench.name).toBeGreaterThan(0);
      expect(sides.reference.median, bench.name).toBeGreaterThan(0);
      expect(Number.isFinite(sides.ratio), bench.name).toBe(true);
    }
    // Several figures start child processes (simulator, engine, workers) and build databases.
  }, 240_000);
});
