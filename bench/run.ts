// `npm run bench [-- [--quick] [NAME...]]`: measures each figure against its reference and records it.
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { forceGcFunction } from './harness/force-gc.js';
import { describeMachine } from './harness/machine.js';
import { formatNumber, renderFigures, replaceBetweenMarkers } from './harness/markdown.js';
import { loadBenchmarks, selectBenchmarks } from './harness/registry.js';
import { mergeResults, readResults, toResult, writeResults } from './harness/results-file.js';
import { runBenchmark } from './harness/runner.js';
import type { BenchmarkResult } from './harness/types.js';

const HERE = import.meta.dirname;
const LATEST = path.join(HERE, 'results', 'latest.json');
const QUICK = path.join(HERE, 'results', 'quick.json');
const DOC = path.join(HERE, '..', 'docs', 'performance.md');

const USAGE = `usage: npm run bench -- [--quick] [--list] [--rounds N] [--warmup N] [NAME...]
  --quick    seconds-long smoke run; writes bench/results/quick.json only
  --list     print the benchmark names and exit`;

function positiveInt(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be an integer ≥ ${min}, got "${text}"`);
  return n;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const all = await loadBenchmarks(path.join(HERE, 'figures'));
  if (values.list) {
    for (const b of all) console.log(`${b.name.padEnd(28)} ${b.figure}`);
    return 0;
  }
  const quick = values.quick;
  const benches = selectBenchmarks(all, positionals);
  const rounds = positiveInt('--rounds', values.rounds, quick ? 3 : 10, 1);
  const warmup = positiveInt('--warmup', values.warmup, quick ? 1 : 3, 0);
  const machine = describeMachine();
  const date = new Date().toISOString();
  const loadAverage = os.loadavg()[0] ?? 0;
  const beforeSample = forceGcFunction();

  const results: BenchmarkResult[] = [];
  const failures: string[] = [];
  for (const bench of benches) {
    process.stdout.write(`${bench.name}: `);
    try {
      // Figures with long samples cap their rounds, and in a quick run take one sample a side.
      const heavy = bench.maxRounds !== undefined;
      const shape = {
        rounds: values.rounds === undefined ? Math.min(rounds, heavy && quick ? 1 : (bench.maxRounds ?? rounds)) : rounds,
        warmup: values.warmup === undefined ? Math.min(warmup, heavy && quick ? 0 : (bench.maxWarmup ?? warmup)) : warmup,
      };
      const sides = await runBenchmark(bench, {
        quick,
        ...shape,
        beforeSample,
        onSample: (_s, _r, _v, warm) => process.stdout.write(warm ? '·' : '.'),
      });
      const r = toResult(bench, sides, { ...shape, quick, date, machine, loadAverage });
      results.push(r);
      const verdict = r.meetsTarget === null ? '' : r.meetsTarget ? ', meets target' : ', BELOW TARGET';
      console.log(
        ` pacer ${formatNumber(r.pacer.median)} ${r.unit} (${formatNumber(r.pacer.min)}–${formatNumber(r.pacer.max)}), ` +
          `reference ${formatNumber(r.reference.median)} ${r.unit}, ratio ${formatNumber(r.ratio * 100)} %${verdict}`,
      );
    } catch (err) {
      failures.push(bench.name);
      console.log(' FAILED');
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    }
  }

  if (quick) {
    await writeResults(QUICK, mergeResults(null, results, { date, machine, loadAverage }));
    console.log(`wrote ${path.relative(process.cwd(), QUICK)} (quick run: committed figures left alone)`);
  } else if (results.length > 0) {
    const merged = mergeResults(await readResults(LATEST), results, { date, machine, loadAverage });
    await writeResults(LATEST, merged);
    await writeFile(DOC, replaceBetweenMarkers(await readFile(DOC, 'utf8'), renderFigures(merged)));
    console.log(`wrote ${path.relative(process.cwd(), LATEST)} and ${path.relative(process.cwd(), DOC)}`);
  }
  if (failures.length > 0) {
    console.error(`benchmark${failures.length > 1 ? 's' : ''} failed: ${failures.join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    console.error(USAGE);
    process.exit(2);
  },
);
