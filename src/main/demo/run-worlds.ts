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
 * Every strategy's world in worker threads, one thread per core (each runs its worlds one after
 * another, so the code loads once per thread): Pacer's worlds, the longest, start first. Outcomes
 * come back in the order the strategies were given.
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
    if (next >= order.length) return;
    const worker = startWorker({ plan, simulator, start, outDir: options.outDir, logErrors: options.logErrors });
    try {
      while (next < order.length) {
        const i = order[next++]!;
        outcomes[i] = await worker.run(strategies[i]!, (day) => options.progress(strategies[i]!.name, day));
      }
    } finally {
      await worker.close();
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? availableParallelism(), strategies.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return outcomes;
}

const weight = (s: Strategy): number => (s.kind === 'pacer' ? 1 : 0);

type FromWorker = { type: 'progress'; day: number } | { type: 'done'; outcome: WorldOutcome } | { type: 'failed'; message: string };

interface WorldThread {
  run(strategy: Strategy, progress: (day: number) => void): Promise<WorldOutcome>;
  close(): Promise<void>;
}

function startWorker(workerData: {
  plan: DemoPlan;
  simulator: SimulatorConfigInput;
  start: Millis;
  outDir: string;
  logErrors: boolean;
}): WorldThread {
  // Same file type as this module: .ts under tsx, .js once compiled.
  const ext = path.extname(new URL(import.meta.url).pathname);
  const file = new URL(`./world-worker${ext}`, import.meta.url);
  // Under tsx the worker registers the same TypeScript loader before importing the module. The loader
  // is found from this file, not from the working directory, so the lab runs from any folder.
  const worker =
    ext === '.ts'
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((t) => { t.register(); return import(${JSON.stringify(file.href)}); });`,
          {
            eval: true,
            workerData,
          },
        )
      : new Worker(file, { workerData });
  let current: { name: string; progress: (day: number) => void; resolve: (o: WorldOutcome) => void; reject: (e: Error) => void } | null =
    null;
  let exited = false;
  worker.on('message', (m: FromWorker) => {
    if (current === null) return;
    if (m.type === 'progress') return current.progress(m.day);
    const c = current;
    current = null;
    if (m.type === 'done') c.resolve(m.outcome);
    else c.reject(new Error(`the ${c.name} world failed: ${m.message}`));
  });
  worker.on('error', (e) => current?.reject(e));
  const ended = new Promise<void>((resolve) =>
    worker.on('exit', (code) => {
      exited = true;
      current?.reject(new Error(`the ${current.name} world stopped with code ${code}`));
      resolve();
    }),
  );
  return {
    run: (strategy, progress) =>
      new Promise((resolve, reject) => {
        if (exited) return reject(new Error(`the ${strategy.name} world's thread has stopped`));
        current = { name: strategy.name, progress, resolve, reject };
        worker.postMessage({ type: 'run', strategy });
      }),
    // Every world it ran has handed back its outcome and closed its store: nothing is left to finish.
    close: async () => {
      if (!exited) await worker.terminate();
      await ended;
    },
  };
}
