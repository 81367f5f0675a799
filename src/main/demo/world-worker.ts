import { parentPort, workerData } from 'node:worker_threads';
import type { SimulatorConfigInput } from '../../adapters/simulator/index.js';
import type { DemoPlan } from './demo-plan.js';
import { runWorld } from './run-world.js';
import type { Strategy } from './strategies.js';

/** Runs one strategy's world on its own thread, so worlds share the machine's cores. */
const { strategy, plan, simulator, start, outDir, logErrors } = workerData as {
  strategy: Strategy;
  plan: DemoPlan;
  simulator: SimulatorConfigInput;
  start: number;
  outDir: string;
  logErrors: boolean;
};
const outcome = await runWorld(strategy, plan, simulator, start, {
  outDir,
  logErrors,
  progress: (day) => parentPort?.postMessage({ type: 'progress', day }),
});
parentPort?.postMessage({ type: 'done', outcome });
