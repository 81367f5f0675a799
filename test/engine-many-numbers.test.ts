import { describe, expect, it } from 'vitest';
import { createPhoneNumberApiClient } from '../src/adapters/cloud-api/phone-number-api-client.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { simulatedAccounts, startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { seededRandom } from '../src/adapters/simulator/prng.js';
import { createCampaign } from '../src/app/create-campaign.js';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { sendingNumbers } from '../src/app/sending-numbers.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { syncSenders, type SenderAccount } from '../src/app/sync-senders.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR, MINUTE, SECOND, type Millis } from '../src/core/time.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { plainTemplates } from './plain-templates.js';
import { BACKENDS } from './store-backends.js';

const START: Millis = Date.UTC(2026, 2, 2, 8, 0, 0);
const TOKEN = 'many-numbers-token';
const SECRET = 'many-numbers-secret';
// Account 1 has two numbers (one portfolio); account 2 one number, with its own token and secret.
const ACCOUNTS = simulatedAccounts({ accounts: 2, numbers: 2, accessToken: TOKEN, appSecret: SECRET });
const [ACCOUNT_1, ACCOUNT_2] = ACCOUNTS as [(typeof ACCOUNTS)[number], (typeof ACCOUNTS)[number]];
const [A1, A2] = ACCOUNT_1.numbers.map((n) => n.phoneNumberId) as [string, string];
const [B1] = ACCOUNT_2.numbers.map((n) => n.phoneNumberId) as [string];

interface World {
  store: Store;
  clock: VirtualClock;
  sim: Simulator;
  engine: Engine;
  /** Contact ids by simulator user index. */
  contacts: number[];
}

/**
 * One simulator with both accounts, one engine sending from `numbers` (each with its account's
 * token), and Pacer's senders read from the simulator with `pacer sender sync`'s use case.
 */
async function world(store: Store, numbers: readonly { phoneNumberId: string; accessToken: string }[], population = 120): Promise<World> {
  const clock = new VirtualClock(START);
  let sim: Simulator | null = null;
  const [first, ...others] = numbers;
  if (first === undefined) throw new Error('a number expected');
  const engine = await startEngine({
    store,
    clock,
    policy: DEFAULT_POLICY,
    random: seededRandom(5),
    http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET, `${SECRET}-2`], verifyToken: 'many', mode: 'production' },
    worker: { owner: 'many-numbers', mps: 50 },
    cloudApi: async (url) => {
      sim = await startSimulator(
        {
          seed: 9,
          templates: plainTemplates(),
          accounts: ACCOUNTS,
          population: { size: population },
          callbackUrl: `${url}/webhooks/whatsapp`,
        },
        { clock },
      );
      return { baseUrl: sim.url, apiVersion: 'v24.0', ...first, otherNumbers: others };
    },
  });
  if (sim === null) throw new Error('simulator expected');
  const running: Simulator = sim;
  const accounts: SenderAccount[] = ACCOUNTS.map((a, k) => ({
    name: `account-${k + 1}`,
    businessAccountId: a.wabaId,
    portfolio: 'acme',
    phoneNumberIds: null,
    api: createPhoneNumberApiClient({ baseUrl: running.url, apiVersion: 'v24.0', accessToken: a.accessToken }),
  }));
  const report = await syncSenders({ store, now: () => clock.now() }, accounts);
  await Promise.all(accounts.map((a) => a.api.close()));
  expect(report.accounts.map((a) => a.numbers.length)).toEqual([2, 2]);
  await store.upsertTemplates(
    [
      { name: 'order_update', language: 'en_US', category: 'utility', status: 'approved', quality: 'GREEN', pausedUntil: null },
      { name: 'spring_sale', language: 'en_US', category: 'marketing', status: 'approved', quality: 'GREEN', pausedUntil: null },
    ],
    clock.now(),
  );
  const { ids } = await importContactRecords(
    store,
    running.users.map((u) => ({
      phoneE164: `+${u.phone}`,
      name: u.name,
      tags: [`group-${u.index % 3}`],
      attributes: {},
      consent: { utility: true, marketing: true },
    })),
    'many-numbers',
    DEFAULT_POLICY,
    clock.now(),
  );
  return { store, clock, sim: running, engine, contacts: ids };
}

async function campaignFrom(w: World, phoneNumberId: string, tag: string, template = 'order_update'): Promise<number> {
  const created = await createCampaign(
    w.store,
    {
      name: `${tag} from ${phoneNumberId}`,
      template: { name: template, language: 'en_US' },
      sender: { phoneNumberId },
      segment: { tagsAll: [tag] },
    },
    w.clock.now(),
  );
  if (!created.ok) throw new Error(`campaign refused: ${created.problem}`);
  await startCampaign(w.store, created.campaign.id, { phoneNumberId }, w.clock.now(), w.engine.signal);
  return created.campaign.id;
}

const from = (w: World, phoneNumberId: string) => w.sim.groundTruth().messages.filter((m) => m.phoneNumberId === phoneNumberId);

async function stop(w: World): Promise<void> {
  await w.engine.stop();
  await w.sim.stop();
}

describe.each(BACKENDS)('several numbers from one process on $name', (backend) => {
  it("runs two campaigns on two numbers side by side, each at its own number's throughput", async () => {
    const store = await backend.open();
    const w = await world(store, [
      { phoneNumberId: A1, accessToken: TOKEN },
      { phoneNumberId: A2, accessToken: TOKEN },
    ]);
    try {
      // Meta raised A2's throughput; A1 keeps a low one. Each number's bucket is its own.
      for (const [id, mps] of [
        [A1, 4],
        [A2, 8],
      ] as const) {
        const s = await store.getSender(id);
        if (s === null) throw new Error('synced sender expected');
        await store.upsertSenders([{ ...s, throughputMps: mps }], w.clock.now());
      }
      const start = w.clock.now();
      await campaignFrom(w, A1, 'group-0');
      await campaignFrom(w, A2, 'group-1');
      await w.sim.advance(5 * SECOND);
      const firstFive = (id: string) => from(w, id).filter((m) => m.acceptedAt < start + 5 * SECOND).length;
      // Side by side: both sending in the same seconds, each near its own rate (a burst of one token at most).
      expect(firstFive(A1)).toBeGreaterThanOrEqual(16);
      expect(firstFive(A1)).toBeLessThanOrEqual(4 * 5 + 2);
      expect(firstFive(A2)).toBeGreaterThanOrEqual(36);
      expect(firstFive(A2)).toBeLessThanOrEqual(8 * 5 + 2);
      await w.sim.advance(MINUTE);
      expect(from(w, A1)).toHaveLength(40);
      expect(from(w, A2)).toHaveLength(40);
      // Neither number's requests ever exceeded its throughput at Meta.
      expect(w.sim.groundTruth().syncErrors).toEqual({});
    } finally {
      await stop(w);
    }
  });

  it("pauses only the campaigns of the number whose quality dropped; the other number's go on", async () => {
    const store = await backend.open();
    const w = await world(store, [
      { phoneNumberId: A1, accessToken: TOKEN },
      { phoneNumberId: A2, accessToken: TOKEN },
    ]);
    try {
      for (const id of [A1, A2]) {
        const s = await store.getSender(id);
        if (s === null) throw new Error('synced sender expected');
        await store.upsertSenders([{ ...s, throughputMps: 2 }], w.clock.now());
      }
      const onA1 = await campaignFrom(w, A1, 'group-0', 'spring_sale');
      const onA2 = await campaignFrom(w, A2, 'group-1', 'spring_sale');
      await w.sim.advance(3 * SECOND);
      const display = ACCOUNT_1.numbers[1]?.displayPhoneNumber ?? '';
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: ACCOUNT_1.wabaId,
            time: Math.floor(w.clock.now() / 1000),
            changes: [
              {
                field: 'phone_number_quality_update',
                value: { display_phone_number: display, event: 'DOWNGRADE', current_limit: 'TIER_2K' },
              },
            ],
          },
        ],
      });
      const res = await fetch(`${w.engine.url}/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
        body,
      });
      expect(res.status).toBe(200);
      await w.engine.pump.drain();
      expect((await store.getCampaign(onA2))?.status).toBe('paused');
      expect((await store.getCampaign(onA1))?.status).toBe('running');
      const a2Before = from(w, A2).length;
      const a1Before = from(w, A1).length;
      await w.sim.advance(10 * SECOND);
      expect(from(w, A2).length).toBe(a2Before);
      expect(from(w, A1).length).toBeGreaterThan(a1Before + 10);
      expect((await store.getSender(A2))?.qualityRating).toBe('FLAGGED');
      expect((await store.getSender(A1))?.qualityRating).toBe('GREEN');
    } finally {
      await stop(w);
    }
  });

  it("holds the portfolio's messaging limit across its numbers", async () => {
    const store = await backend.open();
    const w = await world(store, [
      { phoneNumberId: A1, accessToken: TOKEN },
      { phoneNumberId: A2, accessToken: TOKEN },
    ]);
    try {
      // Both numbers are in portfolio "acme" (the accounts' configuration): 50 new people a day between them.
      for (const id of [A1, A2]) {
        const s = await store.getSender(id);
        if (s === null || s.portfolioId !== 'acme') throw new Error('synced sender of portfolio acme expected');
        await store.upsertSenders([{ ...s, messagingLimitTier: 'TIER_50' }], w.clock.now());
      }
      await campaignFrom(w, A1, 'group-0');
      await campaignFrom(w, A2, 'group-1');
      await w.sim.advance(HOUR);
      const people = new Set(w.sim.groundTruth().messages.map((m) => m.to));
      expect(people.size).toBe(50);
      // Both numbers had their turn at the shared limit.
      expect(from(w, A1).length).toBeGreaterThan(0);
      expect(from(w, A2).length).toBeGreaterThan(0);
      const sender = await store.getSender(A1);
      expect(await store.conversationWindow(sender?.id ?? -1, w.clock.now() - 24 * HOUR)).toMatchObject({ people: 50 });
    } finally {
      await stop(w);
    }
  });

  it('never sends a row of a number it has no credentials for; a process that has them sends it from that number', async () => {
    const store = await backend.open();
    // This process holds account 1's token only.
    const w = await world(store, [{ phoneNumberId: A1, accessToken: TOKEN }]);
    try {
      await campaignFrom(w, A1, 'group-0');
      const onB1 = await campaignFrom(w, B1, 'group-1');
      await w.sim.advance(2 * MINUTE);
      expect(from(w, A1)).toHaveLength(40);
      expect(from(w, B1)).toHaveLength(0);
      expect(w.sim.groundTruth().syncErrors).toEqual({});
      const counters = await store.campaignCounters(onB1);
      expect(counters.queued).toBe(40);
      // What serve computes from the configuration: the numbers of accounts it holds a token for.
      const numbers = sendingNumbers(
        [
          { name: 'one', businessAccountId: ACCOUNT_1.wabaId, accessToken: TOKEN, phoneNumberIds: null },
          { name: 'two', businessAccountId: ACCOUNT_2.wabaId, accessToken: null, phoneNumberIds: null },
        ],
        await store.listSenders(),
        A1,
      );
      expect(numbers.map((n) => n.phoneNumberId)).toEqual([A1, A2]);
      // A second process with account 2's token sends B1's rows, from B1.
      const second = await startEngine({
        store,
        clock: w.clock,
        policy: DEFAULT_POLICY,
        random: seededRandom(6),
        http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: 'many', mode: 'production' },
        worker: { owner: 'many-numbers-2', mps: 50 },
        cloudApi: { baseUrl: w.sim.url, apiVersion: 'v24.0', phoneNumberId: B1, accessToken: ACCOUNT_2.accessToken },
      });
      try {
        await w.sim.advance(2 * MINUTE);
        expect(from(w, B1)).toHaveLength(40);
        expect(from(w, A1)).toHaveLength(40);
        expect(w.sim.groundTruth().syncErrors).toEqual({});
      } finally {
        await second.stop();
      }
    } finally {
      await stop(w);
    }
  });

  it('sender sync reads every page of every account, and stores each number with its account, portfolio and health', async () => {
    const store = await backend.open();
    const three = simulatedAccounts({ accounts: 2, numbers: 3, accessToken: TOKEN, appSecret: SECRET, messagingLimit: 'TIER_10K' });
    const sim = await startSimulator({ seed: 3, templates: plainTemplates(), accounts: three, population: { size: 5 }, callbackUrl: null });
    const accounts: SenderAccount[] = three.map((a, k) => ({
      name: `account-${k + 1}`,
      businessAccountId: a.wabaId,
      portfolio: k === 0 ? 'acme' : 'other',
      // The second account sends from two of its three numbers only.
      phoneNumberIds: k === 0 ? null : a.numbers.slice(0, 2).map((n) => n.phoneNumberId),
      api: createPhoneNumberApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: a.accessToken, pageSize: 1 }),
    }));
    try {
      const report = await syncSenders({ store, now: () => START }, accounts);
      expect(
        report.accounts.map((a) => ({ pages: a.pages, numbers: a.numbers.length, notConfigured: a.notConfigured.length, ok: a.ok })),
      ).toEqual([
        { pages: 3, numbers: 3, notConfigured: 0, ok: true },
        { pages: 3, numbers: 2, notConfigured: 1, ok: true },
      ]);
      expect(report).toMatchObject({ added: 5, updated: 0, unchanged: 0 });
      const stored = await store.listSenders();
      expect(stored).toHaveLength(5);
      const first = three[0]?.numbers[0];
      expect(await store.getSender(first?.phoneNumberId ?? '')).toMatchObject({
        displayNumber: first?.displayPhoneNumber,
        verifiedName: first?.verifiedName,
        businessAccountId: three[0]?.wabaId,
        portfolioId: 'acme',
        metaStatus: 'CONNECTED',
        throughputLevel: 'STANDARD',
        throughputMps: 80,
        messagingLimitTier: 'TIER_10K',
        state: 'ok',
        syncedAt: START,
      });
      // Again: nothing changed.
      expect(await syncSenders({ store, now: () => START + 1 }, accounts)).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
      // A number paced below Meta's level on purpose keeps its pace while Meta's level stays the same.
      const paced = await store.getSender(first?.phoneNumberId ?? '');
      if (paced === null) throw new Error('synced sender expected');
      await store.upsertSenders([{ ...paced, throughputMps: 30 }], START + 1);
      await syncSenders({ store, now: () => START + 1 }, accounts);
      expect((await store.getSender(paced.phoneNumberId))?.throughputMps).toBe(30);
      // A token that cannot read the account: reported, and what was stored stays.
      const wrong: SenderAccount = {
        ...accounts[1]!,
        api: createPhoneNumberApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: TOKEN }),
      };
      try {
        const refused = await syncSenders({ store, now: () => START + 2 }, [wrong]);
        expect(refused.accounts[0]).toMatchObject({ ok: false, numbers: [] });
        expect(refused.accounts[0]?.problems[0]).toContain('(#100)');
      } finally {
        await wrong.api.close();
      }
      expect(await store.listSenders()).toHaveLength(5);
    } finally {
      await Promise.all(accounts.map((a) => a.api.close()));
      await sim.stop();
    }
  });
});
