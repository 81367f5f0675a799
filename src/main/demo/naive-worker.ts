import { parentPort, workerData } from 'node:worker_threads';
import type { SimulatorConfigInput } from '../../adapters/simulator/index.js';
import type { DemoPlan } from './demo-plan.js';
import { runNaiveWorld } from './naive-world.js';

/** Runs the naive strategy on the other core while the main thread runs Pacer. */
const { plan, simulator, start } = workerData as { plan: DemoPlan; simulator: SimulatorConfigInput; start: number };
const result = await runNaiveWorld(plan, simulator, start, (day) => parentPort?.postMessage({ type: 'progress', day }));
parentPort?.postMessage({ type: 'done', result: { ...result, suppressed: [...result.suppressed] } });
