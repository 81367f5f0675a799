import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusError, webhookBody, type OutEvent, type StatusObject } from '../src/adapters/simulator/payloads.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { processInbox } from '../src/app/process-inbox.js';
import { loadContactState } from '../src/app/update-contact-state.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS, type TestBackend } from './store-backends.js';

// Webhook storms: Meta retries, delivers concurrently and out of order. Every status delivered three
// times, shuffled and batched differently, must leave exactly the state one in-order delivery leaves.

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const NOW = T0 + 3_600_000;
const WHO = { wabaId: '100200300400500', phoneNumberId: 'pn-1', displayPhoneNumber: '15550100' };
const CONTACTS = 8;

/** What can happen to one sent message, and then what its recipient does. */
const FATES = [
  ['sent', 'delivered', 'read'],
  ['sent', 'delivered'],
  ['read'], // in the chat: only `read` is reported
  ['sent', 'failed:131049'],
  ['sent', 'failed:130472'],
  ['failed:131026'],
  ['sent', 'failed:131050'],
] as const; // `failed` may follow `sent`, never `delivered` (Meta's status order)
const REACTIONS = ['none', 'reply', 'stop_keyword', 'preference_stop', 'stop_then_resume'] as const;

interface Story {
  fate: number;
  reaction: (typeof REACTIONS)[number];
  /** Seconds between consecutive events of this contact. */
  gaps: number[];
}

const story = fc.record({
  fate: fc.nat({ max: FATES.length - 1 }),
  reaction: fc.constantFrom(...REACTIONS),
  gaps: fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 6, maxLength: 6 }),
});

const waId = (i: number) => `4477009${String(i).padStart(5, '0')}`;
const wamid = (i: number) => `wamid.storm-${i}`;

/** Each event as its own webhook body, in the order things happened. */
function timeline(stories: readonly Story[], rowIds: readonly number[]): Array<{ at: number; event: OutEvent }> {
  const out: Array<{ at: number; event: OutEvent }> = [];
  stories.forEach((s, i) => {
    let at = T0 + i * 1000;
    const next = (k: number) => (at += (s.gaps[k] ?? 1) * 1000);
    const contact = { profile: { name: `User ${i}` }, wa_id: waId(i), user_id: `US.${i}` };
    FATES[s.fate]?.forEach((step, k) => {
      const [status, code] = step.split(':') as [StatusObject['status'], string | undefined];
      const when = next(k);
      const object: StatusObject = {
        id: wamid(i),
        status,
        timestamp: String(when / 1000),
        recipient_id: waId(i),
        biz_opaque_callback_data: `pacer:${rowIds[i]}`,
      };
      if (code !== undefined) object.errors = [statusError(Number(code))];
      out.push({ at: when, event: { kind: 'status', status: object } });
    });
    const text = (body: string, when: number): OutEvent => ({
      kind: 'inbound',
      contact,
      message: {
        from: waId(i),
        from_user_id: `US.${i}`,
        id: `wamid.in-${i}-${when}`,
        timestamp: String(when / 1000),
        type: 'text',
        text: { body },
      },
    });
    switch (s.reaction) {
      case 'none':
        break;
      case 'reply': {
        const when = next(4);
        out.push({ at: when, event: text('Hello!', when) });
        break;
      }
      case 'stop_keyword': {
        const when = next(4);
        out.push({ at: when, event: text('STOP', when) });
        break;
      }
      case 'preference_stop': {
        const when = next(4);
        out.push({ at: when, event: { kind: 'preference', contact, value: 'stop', at: when } });
        break;
      }
      case 'stop_then_resume': {
        const stopAt = next(4);
        out.push({ at: stopAt, event: { kind: 'preference', contact, value: 'stop', at: stopAt } });
        const resumeAt = next(5);
        out.push({ at: resumeAt, event: { kind: 'preference', contact, value: 'resume', at: resumeAt } });
        break;
      }
    }
  });
  return out.sort((a, b) => a.at - b.at);
}

/** A running campaign whose message to each contact Meta accepted (wamid recorded). */
async function sentCampaign(store: Store): Promise<{ rowIds: number[]; contactIds: number[] }> {
  const [templateId = -1] = await store.upsertTemplates(
    [{ name: 'promo', language: 'en', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null }],
    T0,
  );
  const [senderId = -1] = await store.upsertSenders(
    [
      {
        phoneNumberId: WHO.phoneNumberId,
        displayNumber: WHO.displayPhoneNumber,
        qualityRating: 'GREEN',
        throughputMps: 80,
        messagingLimitTier: null,
        state: 'ok',
        stateReason: null,
        stateUntil: null,
      },
    ],
    T0,
  );
  const campaignId = await store.createCampaign(
    { name: 'storm', templateId, senderId, segment: {}, scheduledAt: T0, policyPreset: 'meta', status: 'running' },
    T0,
  );
  const { ids: contactIds } = await store.upsertContacts(
    Array.from({ length: CONTACTS }, (_, i) => ({ waId: waId(i), phoneE164: `+${waId(i)}` })),
    T0,
  );
  for (const id of contactIds)
    await store.setConsent(id, { category: 'marketing', status: 'granted', source: 'test', evidence: null, at: T0 - 1000 }, T0);
  await store.insertOutbox(
    contactIds.map((contactId) => ({
      campaignId,
      contactId,
      senderId,
      category: 'marketing',
      intent: { phoneNumberId: WHO.phoneNumberId, template: { name: 'promo', language: 'en' } },
      idempotencyKey: null,
      nextAttemptAt: T0 - 1,
    })),
    T0,
  );
  const claimed = await store.claimDue({ owner: 'storm', now: T0, leaseMs: 60_000, limit: CONTACTS });
  const byContact = new Map(claimed.map((r) => [r.contactId, r.id]));
  const rowIds = contactIds.map((c) => byContact.get(c) ?? -1);
  for (const [i, id] of rowIds.entries()) {
    await store.recordIntent(id, 'storm', T0);
    await store.recordAccepted(id, 'storm', wamid(i), T0);
  }
  return { rowIds, contactIds };
}

/** Everything the webhooks decide: each row's status, outcome, error and retry time, and each contact's state. */
async function finalState(store: Store, rowIds: readonly number[], contactIds: readonly number[]): Promise<unknown> {
  const rows = await Promise.all(
    rowIds.map(async (id) => {
      const r = await store.getOutbox(id);
      return (
        r && { status: r.status, outcome: r.outcome, error: r.lastErrorCode, next: r.nextAttemptAt, wamid: r.wamid, attempts: r.attempts }
      );
    }),
  );
  // `seen` is the set of events applied (for dedupe); its order is merely the order of arrival.
  const states = (await Promise.all(contactIds.map((id) => loadContactState(store, id)))).map((s) => ({ ...s, seen: [...s.seen].sort() }));
  return { rows, states };
}

async function deliver(backend: TestBackend, stories: readonly Story[], order: (bodies: Buffer[]) => Buffer[]): Promise<unknown> {
  const store = await backend.open();
  try {
    return await deliverTo(store, stories, order);
  } finally {
    await store.close(); // a property run opens many stores: give each connection back at once
  }
}

async function deliverTo(store: Store, stories: readonly Story[], order: (bodies: Buffer[]) => Buffer[]): Promise<unknown> {
  const { rowIds, contactIds } = await sentCampaign(store);
  const bodies = timeline(stories, rowIds).map((t) => Buffer.from(JSON.stringify(webhookBody(WHO, [t.event]))));
  for (const raw of order(bodies)) await store.appendInbox({ raw, receivedAt: NOW, signatureOk: true });
  const deps = { store, policy: DEFAULT_POLICY, clock: { now: () => NOW }, random: () => 0.5, parse: parseWebhook };
  for (;;) if ((await processInbox(deps)).rows === 0) break;
  expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
  return finalState(store, rowIds, contactIds);
}

/** Three copies of every body, shuffled, some statuses batched with others (as Meta batches under load). */
function storm(bodies: Buffer[], shuffle: number[], batchEvery: number): Buffer[] {
  const copies = [...bodies, ...bodies, ...bodies];
  const order = copies.map((_, i) => i).sort((a, b) => (shuffle[a % shuffle.length] ?? 0) - (shuffle[b % shuffle.length] ?? 0) || b - a);
  const out: Buffer[] = [];
  for (let i = 0; i < order.length; i++) {
    const body = copies[order[i] ?? 0] as Buffer;
    const parsed = JSON.parse(body.toString()) as { entry: Array<{ changes: unknown[] }> };
    const next = copies[order[i + 1] ?? -1];
    // Now and then two deliveries travel in one POST, as two changes of one entry.
    if (batchEvery > 0 && i % batchEvery === 0 && next !== undefined) {
      const other = JSON.parse(next.toString()) as { entry: Array<{ changes: unknown[] }> };
      parsed.entry[0]?.changes.push(...(other.entry[0]?.changes ?? []));
      i++;
    }
    out.push(Buffer.from(JSON.stringify(parsed)));
  }
  return out;
}

describe.each(BACKENDS)('webhook storms ($name)', (backend) => {
  it('end in the same outbox outcomes and contact states as one in-order delivery', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(story, { minLength: CONTACTS, maxLength: CONTACTS }),
        fc.array(fc.nat({ max: 1000 }), { minLength: 7, maxLength: 40 }),
        fc.integer({ min: 0, max: 5 }),
        async (stories, shuffle, batchEvery) => {
          const once = await deliver(backend, stories, (bodies) => bodies);
          const stormy = await deliver(backend, stories, (bodies) => storm(bodies, shuffle, batchEvery));
          expect(stormy).toEqual(once);
        },
      ),
      { numRuns: backend.name === 'sqlite' ? 10 : 2, seed: 20261201 },
    );
  }, 120_000);
});
