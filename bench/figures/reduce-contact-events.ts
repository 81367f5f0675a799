import type { ContactEvent } from '../../src/core/contact-event.js';
import { EMPTY_CONTACT_STATE } from '../../src/core/contact-state.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { reduceContact } from '../../src/core/reduce-contact.js';
import { buildContactHistories } from '../fixtures/contact-events.js';
import type { Benchmark } from '../harness/types.js';

interface Ctx {
  histories: ContactEvent[][];
  events: number;
  copies: ContactEvent[];
  sink: number;
}

const benchmark: Benchmark<Ctx> = {
  name: 'reduce-contact',
  row: 'reduce-contact',
  figure: 'reduceContact events applied per second (mixed statuses, failures, inbound, preferences; 40 per contact)',
  against: 'raw loop copying the same events',
  target: 'none set',
  unit: 'events/s',
  setup: ({ quick }) => {
    const histories = buildContactHistories(quick ? 250 : 5_000, 40);
    const events = histories.reduce((n, h) => n + h.length, 0);
    return { histories, events, copies: new Array<ContactEvent>(events), sink: 0 };
  },
  pacer(ctx) {
    let sink = 0;
    for (const history of ctx.histories) {
      let state = EMPTY_CONTACT_STATE;
      for (const event of history) state = reduceContact(state, event, DEFAULT_POLICY);
      sink += state.seen.length;
    }
    ctx.sink += sink;
    return { ops: ctx.events };
  },
  reference(ctx) {
    const out = ctx.copies;
    let k = 0;
    for (const history of ctx.histories) {
      for (const event of history) out[k++] = { ...event };
    }
    ctx.sink += k;
    return { ops: ctx.events };
  },
  teardown(ctx) {
    if (ctx.sink <= 0) throw new Error('reduce-contact benchmark: results were not consumed');
  },
};

export default benchmark;
