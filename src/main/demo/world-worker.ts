import { parentPort, workerData } from 'node:worker_threads';
import type { SimulatorConfigInput } from '../../adapters/simulator/index.js';
import type { DemoPlan } from './demo-plan.js';
import { runWorld } from './run-world.js';
import type { Strategy } from './strategies.js';

/** Runs strategies' worlds on its own thread, one after another as it is sent them, so worlds share the machine's cores. */
const { plan, simulator, start, outDir, logErrors } = workerData as {
  plan: DemoPlan;
  simulator: SimulatorConfigInput;
  start: number;
  outDir: string;
  logErrors: boolean;
};
parentPort?.on('message', (m: { type: 'run'; strategy: Strategy }) => {
  runWorld(m.strategy, plan, simulator, start, {
    outDir,
    logErrors,
    progress: (day) => parentPort?.postMessage({ type: 'progress', day }),
  }).then(
    (outcome) => parentPort?.postMessage({ type: 'done', outcome }),
    (error: unknown) => parentPort?.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
