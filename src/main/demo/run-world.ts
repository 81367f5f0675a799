import path from 'node:path';
import type { GroundTruth, SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { loadContactState } from '../../app/update-contact-state.js';
import { unreachableCause } from '../../core/contact-facts.js';
import { DEFAULT_POLICY, withCapPreset } from '../../core/policy.js';
import type { Millis } from '../../core/time.js';
import { reachableAmong, retriesFromTruth } from './demo-metrics.js';
import type { DemoPlan } from './demo-plan.js';
import { runPacerWorld } from './pacer-world.js';
import { runPeerWorld } from './peer-world.js';
import type { Strategy } from './strategies.js';

/** What one strategy's week left: the simulator's ground truth and the two figures only the sender knows. */
export interface WorldOutcome {
  strategy: string;
  truth: GroundTruth;
  retriesSpent: number;
  /** Contacts the sender gave up on who were in fact reachable. */
  wronglySuppressed: number;
  /** Wall-clock seconds the world's week took (machine time, not simulated). */
  seconds: number;
  /** A Pacer world whose campaign paused itself and was still paused at the end (nobody resumes it in a lab). */
  campaignPaused?: { at: Millis; reason: string };
}

export interface WorldOptions {
  /** Where a Pacer world keeps its database: `pacer-data` for the default policy, `<name>-data` otherwise. */
  outDir: string;
  logErrors: boolean;
  progress: (day: number) => void;
}

/** The data directory of a Pacer strategy's world. */
export function pacerDataDir(outDir: string, strategy: string): string {
  return path.join(outDir, strategy === 'pacer' ? 'pacer-data' : `${strategy}-data`);
}

export async function runWorld(
  strategy: Strategy,
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  { outDir, logErrors, progress }: WorldOptions,
): Promise<WorldOutcome> {
  const began = performance.now();
  const seconds = () => (performance.now() - began) / 1000;
  if (strategy.kind === 'peer') {
    const r = await runPeerWorld(strategy, plan, simulator, start, progress);
    return {
      strategy: strategy.name,
      truth: r.truth,
      retriesSpent: r.retriesSpent,
      wronglySuppressed: r.wronglySuppressed,
      seconds: seconds(),
    };
  }
  const policy = strategy.preset === null ? DEFAULT_POLICY : withCapPreset(DEFAULT_POLICY, strategy.preset);
  const pacer = await runPacerWorld(plan, simulator, start, {
    dataDir: pacerDataDir(outDir, strategy.name),
    logErrors,
    progress,
    policy,
  });
  // Pacer never suppresses a contact for a cap; count any contact it holds unreachable who is not.
  const unreachable: number[] = [];
  for (const [i, id] of pacer.contactIds.entries()) {
    if (unreachableCause(await loadContactState(pacer.store, id)) !== null) unreachable.push(i);
  }
  const campaign = await pacer.store.getCampaign(pacer.campaignId);
  const outcome: WorldOutcome = {
    strategy: strategy.name,
    truth: pacer.truth,
    retriesSpent: retriesFromTruth(pacer.truth),
    wronglySuppressed: reachableAmong(pacer.users, unreachable),
    seconds: seconds(),
    ...(campaign?.status === 'paused'
      ? { campaignPaused: { at: campaign.updatedAt, reason: campaign.pauseReason ?? 'no reason recorded' } }
      : {}),
  };
  await pacer.store.close();
  return outcome;
}
