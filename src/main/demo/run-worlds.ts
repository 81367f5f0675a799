import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SimulatorConfigInput } from '../../adapters/simulator/index.js';
import type { Millis } from '../../core/time.js';
import type { DemoPlan } from './demo-plan.js';
import type { WorldOutcome } from './run-world.js';
import type { Strategy } from './strategies.js';

export interface RunWorldsOptions {
  outDir: string;
  logErrors: boolean;
  /** A strategy's world finished simulated day `day`. */
  progress: (strategy: string, day: number) => void;
  /** Worlds at once; default one per core. */
  concurrency?: number;
}

/**
 * Every strategy's world, each in a worker thread, as many at once as there are cores: Pacer's
 * worlds (the longest) start first. Outcomes come back in the order the strategies were given.
 */
export async function runWorlds(
  strategies: readonly Strategy[],
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  options: RunWorldsOptions,
): Promise<WorldOutcome[]> {
  const order = [...strategies.keys()].sort((a, b) => weight(strategies[b]!) - weight(strategies[a]!));
  const outcomes: WorldOutcome[] = new Array<WorldOutcome>(strategies.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < order.length) {
      const i = order[next++]!;
      const s = strategies[i]!;
      outcomes[i] = await runInWorker(s, plan, simulator, start, options);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? availableParallelism(), strategies.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return outcomes;
}

const weight = (s: Strategy): number => (s.kind === 'pacer' ? 1 : 0);

function runInWorker(
  strategy: Strategy,
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  options: RunWorldsOptions,
): Promise<WorldOutcome> {
  // Same file type as this module: .ts under tsx, .js once compiled.
  const ext = path.extname(new URL(import.meta.url).pathname);
  const file = new URL(`./world-worker${ext}`, import.meta.url);
  const workerData = { strategy, plan, simulator, start, outDir: options.outDir, logErrors: options.logErrors };
  // Under tsx the worker registers the same TypeScript loader before importing the module.
  const worker =
    ext === '.ts'
      ? new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(file.href)}); });`, {
          eval: true,
          workerData,
        })
      : new Worker(file, { workerData });
  return new Promise((resolve, reject) => {
    let done = false;
    worker.on('message', (m: { type: 'progress'; day: number } | { type: 'done'; outcome: WorldOutcome }) => {
      if (m.type === 'progress') options.progress(strategy.name, m.day);
      else {
        done = true;
        resolve(m.outcome);
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (!done) reject(new Error(`the ${strategy.name} world stopped with code ${code}`));
    });
  });
}
