import { describe, expect, it } from 'vitest';
import { InboxPump } from '../src/app/inbox-pump.js';
import { INBOX_BATCH_ROWS } from '../src/app/process-inbox.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);

/** A body Meta could send that changes nothing here: an account update for no number of ours. */
const body = (i: number) =>
  Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: `waba-${i}`, changes: [] }] }), 'utf8');

async function store(n: number, open: () => Promise<Store>): Promise<Store> {
  const s = await open();
  for (let i = 0; i < n; i++) await s.appendInbox({ raw: body(i), receivedAt: T0, signatureOk: true });
  return s;
}

/** The pump on `s`, counting how often it reads the inbox; `afterRead` runs once a read has its rows. */
function counted(
  s: Store,
  afterRead: (n: number, pump: InboxPump) => Promise<void> = async () => undefined,
): { pump: InboxPump; reads: () => number } {
  let reads = 0;
  const listing: Store = {
    ...s,
    listUnprocessedInbox: async (afterId, limit) => {
      const rows = await s.listUnprocessedInbox(afterId, limit);
      await afterRead(++reads, pump);
      return rows;
    },
  };
  const pump: InboxPump = new InboxPump(
    { store: listing, policy: DEFAULT_POLICY, clock: new VirtualClock(T0), random: () => 0.5, parse: parseWebhook },
    (e) => {
      throw e;
    },
  );
  return { pump, reads: () => reads };
}

describe.each(BACKENDS)('inbox pump ($name)', (backend) => {
  it('stops reading after a short batch: what was stored is applied, with no empty read after it', async () => {
    const s = await store(INBOX_BATCH_ROWS + 50, () => backend.open());
    const { pump, reads } = counted(s);
    await pump.drain();
    expect(pump.totals.rows).toBe(INBOX_BATCH_ROWS + 50);
    expect(reads()).toBe(2); // a full batch, then the 50 left
    expect(await s.listUnprocessedInbox(0, 10)).toEqual([]);
  });

  it('reads once more after a full batch, and again for what is stored while a pass runs', async () => {
    const s = await store(INBOX_BATCH_ROWS, () => backend.open());
    // The second drain's first read comes back empty; a payload is stored and the pump kicked before it ends.
    const { pump, reads } = counted(s, async (n, p) => {
      if (n !== 3) return;
      await s.appendInbox({ raw: body(-1), receivedAt: T0, signatureOk: true });
      p.kick();
    });
    await pump.drain();
    expect(reads()).toBe(2); // the full batch, then the empty read that shows it was all
    await pump.drain();
    expect(reads()).toBe(4); // empty, then again for the kick: the payload stored meanwhile
    expect(pump.totals.rows).toBe(INBOX_BATCH_ROWS + 1);
    expect(await s.listUnprocessedInbox(0, 10)).toEqual([]);
  });
});

describe('inbox pump: a kick as a pass ends', () => {
  /** Runs `task` after `depth` turns of the microtask queue. */
  const after = (depth: number, task: () => void): void => {
    if (depth === 0) task();
    else queueMicrotask(() => after(depth - 1, task));
  };

  it('is never lost, whichever moment of the pass’s ending it comes at', async () => {
    // The kick lands somewhere between the pass's last read and the pump being idle again; wherever
    // it lands, it must bring one more read (the payload it announces is read then).
    for (let depth = 0; depth <= 30; depth++) {
      let reads = 0;
      const pump: InboxPump = new InboxPump(
        {
          store: {
            listUnprocessedInbox: async () => {
              if (++reads === 1) after(depth, () => pump.kick());
              return [];
            },
            transaction: () => Promise.reject(new Error('an empty inbox has no batch to apply')),
          },
          policy: DEFAULT_POLICY,
          clock: new VirtualClock(T0),
          random: () => 0.5,
          parse: parseWebhook,
        },
        (e) => {
          throw e;
        },
      );
      await pump.drain();
      await new Promise((resolve) => setImmediate(resolve)); // every microtask has run
      await pump.drain();
      expect({ depth, reads }).toEqual({ depth, reads: 3 }); // the first pass, the kick's, the last drain's
    }
  });
});
