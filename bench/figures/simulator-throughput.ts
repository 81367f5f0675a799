import { DAY } from '../../src/core/time.js';
import { sendRaw, sendThroughClient, startSimulatorRig, type SimulatorRig } from '../fixtures/simulator-rig.js';
import type { Benchmark } from '../harness/types.js';

export const SIMULATOR_TARGET_PER_SECOND = 5_000;

interface Ctx {
  rig: SimulatorRig;
  sends: number;
  /** Each send gets a fresh number, so no two requests repeat a message id. */
  next: number;
}

const benchmark: Benchmark<Ctx> = {
  name: 'simulator-throughput',
  row: 'simulator-capacity',
  figure: 'Template sends per second through the Cloud API client to the simulator, 64 in flight, virtual time',
  against: 'the same requests as bare undici POSTs',
  target: `≥ ${SIMULATOR_TARGET_PER_SECOND.toLocaleString('en-US')}/s`,
  unit: 'sends/s',
  setup: async ({ quick }) => ({ rig: await startSimulatorRig(64), sends: quick ? 1_000 : 10_000, next: 0 }),
  async pacer(ctx) {
    const tally = await sendThroughClient(ctx.rig, ctx.next, ctx.sends);
    ctx.next += ctx.sends;
    return { ops: tally.accepted + tally.rejected };
  },
  async reference(ctx) {
    const tally = await sendRaw(ctx.rig, ctx.next, ctx.sends);
    ctx.next += ctx.sends;
    return { ops: tally.accepted + tally.rejected };
  },
  // Virtual time stands still during a sample; letting it run a day in between completes the earlier
  // messages' lifecycles, so the simulator's in-flight state stays small instead of slowing every round.
  prepare: (ctx) => ctx.rig.sim.advance(DAY),
  teardown: (ctx) => ctx.rig.close(),
  meets: ({ pacer }) => pacer.median >= SIMULATOR_TARGET_PER_SECOND,
};

export default benchmark;
