import { defaultDemoPlan } from './demo-plan.js';
import type { StrategyMetrics } from './demo-metrics.js';
import { runLab, type LabResult } from './run-lab.js';
import { DEMO_STRATEGIES, pickStrategies } from './strategies.js';

export { demoSimulator } from './run-lab.js';

export interface DemoOptions {
  audience: number;
  outDir: string;
  out: (line: string) => void;
  /** Print the errors of Pacer's HTTP server (PACER_DEMO_LOG). */
  logErrors?: boolean;
  /** Leave the table, stories and paths to the caller (it prints the JSON): `out` gets progress only. */
  json?: boolean;
  /** This installation's data folder: never replaced as the demo's Pacer world. */
  keepDataDir?: string;
}

/** The demo is the lab's default run: the default plan and the four most instructive strategies. */
export async function runDemo(options: DemoOptions): Promise<LabResult & { pacer: StrategyMetrics; naive: StrategyMetrics }> {
  const lab = await runLab({
    plan: defaultDemoPlan(options.audience),
    strategies: pickStrategies(DEMO_STRATEGIES.join(',')),
    outDir: options.outDir,
    out: options.out,
    logErrors: options.logErrors,
    json: options.json,
    keepDataDir: options.keepDataDir,
    title: 'Pacer demo',
  });
  return { ...lab, pacer: lab.metrics['pacer']!, naive: lab.metrics['resend-at-once-drop-after-2']! };
}
