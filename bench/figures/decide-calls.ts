import { decide } from '../../src/core/decide.js';
import type { ContactState } from '../../src/core/contact-state.js';
import type { SendIntent } from '../../src/core/decision.js';
import type { Policy } from '../../src/core/policy.js';
import { buildDecideCases, type DecideCase } from '../fixtures/decide-inputs.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  cases: DecideCase[];
  calls: number;
  /** Consumed results, so the optimiser cannot drop the calls. */
  sink: number;
}

// The reference: same signature, same inputs, no work.
function emptyDecide(_state: ContactState, _intent: SendIntent, _now: number, _policy: Policy): number {
  return 1;
}

const benchmark: Benchmark<Ctx> = {
  name: 'decide',
  row: 'decide',
  figure: 'decide calls per second, one core, over 990 varied states × intents × clocks × policies',
  against: 'empty function over the same inputs',
  target: '≥ 1,000,000/s',
  unit: 'calls/s',
  setup: ({ quick }) => ({ cases: buildDecideCases(), calls: quick ? 20_000 : 500_000, sink: 0 }),
  pacer(ctx) {
    const { cases, calls } = ctx;
    let sink = 0;
    for (let k = 0; k < calls; k++) {
      const c = cases[k % cases.length]!;
      sink += decide(c.state, c.intent, c.now, c.policy).explanation.length;
    }
    ctx.sink += sink;
    return { ops: calls };
  },
  reference(ctx) {
    const { cases, calls } = ctx;
    let sink = 0;
    for (let k = 0; k < calls; k++) {
      const c = cases[k % cases.length]!;
      sink += emptyDecide(c.state, c.intent, c.now, c.policy);
    }
    ctx.sink += sink;
    return { ops: calls };
  },
  teardown(ctx) {
    if (ctx.sink <= 0) throw new Error('decide benchmark: results were not consumed');
  },
  meets: ({ pacer }) => pacer.median >= 1_000_000,
};

export default benchmark;
