import { decide } from '../../src/core/decide.js';
import type { MessageTiming } from '../../src/core/decision.js';
import { spreadFraction } from '../../src/core/send-spread.js';
import { outsideQuietHours } from '../../src/core/send-window.js';
import { buildDecideCases, type DecideCase } from '../fixtures/decide-inputs.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  cases: DecideCase[];
  timed: DecideCase[];
  calls: number;
  /** Consumed results, so the optimiser cannot drop the calls. */
  sink: number;
}

// Recipients in zones at both ends, with and without DST, under the default quiet hours or a
// campaign's weekday window, some with an end time, half with their turn in a 2 h spread.
const ZONES = ['Europe/London', 'America/Sao_Paulo', 'Asia/Kolkata', 'America/New_York', 'Pacific/Kiritimati', 'Australia/Sydney'];
const QUIET = outsideQuietHours({ from: 21 * 60, to: 8 * 60 });
const WEEKDAYS = { from: 9 * 60, to: 20 * 60, days: [1, 2, 3, 4, 5] };

function timingFor(k: number, now: number): MessageTiming {
  return {
    zone: ZONES[k % ZONES.length]!,
    window: k % 3 === 0 ? WEEKDAYS : QUIET,
    windowSource: k % 3 === 0 ? 'campaign' : 'quiet_hours',
    notAfter: k % 4 === 0 ? now + 6 * 3_600_000 : null,
    // Half are campaign rows spread over 2 h after each opening, queued up to a day before.
    spread: k % 2 === 0 ? { overMs: 2 * 3_600_000, fraction: spreadFraction(k), dueAt: now - (k % 24) * 3_600_000 } : null,
  };
}

function run(cases: readonly DecideCase[], calls: number): number {
  let sink = 0;
  for (let k = 0; k < calls; k++) {
    const c = cases[k % cases.length]!;
    sink += decide(c.state, c.intent, c.now, c.policy).explanation.length;
  }
  return sink;
}

const benchmark: Benchmark<Ctx> = {
  name: 'decide-windows',
  row: 'decide',
  figure:
    "decide calls per second with each recipient's local time (zone, send window or quiet hours, end time, spread), one core, same 990 cases",
  against: 'decide over the same cases without local time',
  target: '≥ 1,000,000/s',
  unit: 'calls/s',
  setup: ({ quick }) => {
    const cases = buildDecideCases();
    // Built whole, as the dispatcher builds its intents (a literal with every field): an object spread
    // with one more field after it gets a slower shape in V8 and would measure that instead.
    const timed = cases.map((c, k) => ({ ...c, intent: Object.assign({}, c.intent, { timing: timingFor(k, c.now) }) }));
    return { cases, timed, calls: quick ? 20_000 : 500_000, sink: 0 };
  },
  pacer(ctx) {
    ctx.sink += run(ctx.timed, ctx.calls);
    return { ops: ctx.calls };
  },
  reference(ctx) {
    ctx.sink += run(ctx.cases, ctx.calls);
    return { ops: ctx.calls };
  },
  teardown(ctx) {
    if (ctx.sink <= 0) throw new Error('decide-windows benchmark: results were not consumed');
  },
  meets: ({ pacer }) => pacer.median >= 1_000_000,
};

export default benchmark;
