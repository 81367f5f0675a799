import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import {
  simulatedAccounts,
  type SimAccountConfig,
  type SimNumberConfig,
  type SimulatorConfigInput,
} from '../src/adapters/simulator/index.js';
import { DAY, HOUR } from '../src/core/time.js';
import type { CloudApi } from '../src/ports/cloud-api.js';
import { unsupportedRequestError, problems } from './meta-phone-numbers-strict-schema.js';
import { strictProblems } from './meta-webhook-strict-schema.js';
import {
  accepted,
  API_VERSION,
  APP_SECRET,
  ORDERLY_WEBHOOKS,
  ordinaryCappedUser,
  pickUser,
  sendTemplate,
  startHarness,
  type Harness,
} from './simulator-harness.js';

const SECOND_SECRET = `${APP_SECRET}-2`;

let h: Harness | null = null;
const clients: CloudApi[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await h?.close();
  h = null;
});

/** Two accounts of two numbers each: A and B in the first, C and D in the second. */
async function start(config: SimulatorConfigInput = {}, accounts = simulatedAccounts({ accounts: 2, numbers: 2, appSecret: APP_SECRET })) {
  h = await startHarness({ seed: 61, population: { size: 200 }, webhooks: ORDERLY_WEBHOOKS, ...config, accounts }, {}, [
    APP_SECRET,
    SECOND_SECRET,
  ]);
  const [first, second] = h.sim.config.accounts as [SimAccountConfig, SimAccountConfig];
  const [a, b] = first.numbers as [SimNumberConfig, SimNumberConfig];
  const [c, d] = second.numbers as [SimNumberConfig, SimNumberConfig];
  return { h, first, second, a, b, c, d };
}

/** A Cloud API client sending from `number` with `token` (its own account's unless a test says otherwise). */
function clientFor(harness: Harness, number: SimNumberConfig, token: string): CloudApi {
  const client = createCloudApiClient({
    baseUrl: harness.sim.url,
    apiVersion: API_VERSION,
    phoneNumberId: number.phoneNumberId,
    accessToken: token,
    scheduler: harness.clock,
  });
  clients.push(client);
  return client;
}

describe('several numbers: throughput', () => {
  it('gives each number its own throughput limit (130429 per number)', async () => {
    const accounts = simulatedAccounts({ accounts: 2, numbers: 2, appSecret: APP_SECRET, throughputMps: 3 });
    const { h, first, second, a, b, c } = await start({}, accounts);
    const users = h.sim.users.filter((u) => u.onWhatsApp);
    let next = 0;
    const burst = async (client: CloudApi, n: number) => {
      const codes: Array<number | 'accepted'> = [];
      for (let i = 0; i < n; i++) {
        const result = await sendTemplate(client, users[next++]?.phone ?? '', `tp-${next}`, 'order_update');
        codes.push(result.kind === 'accepted' ? 'accepted' : result.kind === 'rejected' ? result.code : -1);
      }
      return codes;
    };
    // All in the same virtual millisecond: each number's bucket holds 3.
    expect(await burst(clientFor(h, a, first.accessToken), 4)).toEqual(['accepted', 'accepted', 'accepted', 130429]);
    expect(await burst(clientFor(h, b, first.accessToken), 4)).toEqual(['accepted', 'accepted', 'accepted', 130429]);
    expect(await burst(clientFor(h, c, second.accessToken), 3)).toEqual(['accepted', 'accepted', 'accepted']);
    const truth = h.sim.groundTruth();
    expect(truth.syncErrors).toEqual({ 130429: 2 });
    expect(truth.numbers.map((n) => [n.phoneNumberId, n.accepted])).toEqual([
      [a.phoneNumberId, 3],
      [b.phoneNumberId, 3],
      [c.phoneNumberId, 3],
      [second.numbers[1]?.phoneNumberId, 0],
    ]);
  });
});

describe('several numbers: credentials', () => {
  it("refuses a send from a number of another account's token as Graph does (100, subcode 33), and sends nothing", async () => {
    const { h, first, second, a, c } = await start();
    const phone = pickUser(h.sim, ordinaryCappedUser).phone;

    const refused = await sendTemplate(clientFor(h, a, second.accessToken), phone, 'm-1', 'order_update');
    expect(refused).toMatchObject({ kind: 'rejected', code: 100 });
    const raw = await fetch(`${h.sim.url}/${API_VERSION}/${a.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${second.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: phone, type: 'text', text: { body: 'hi' } }),
    });
    expect(raw.status).toBe(400);
    const body = (await raw.json()) as { error: { message: string } };
    expect(problems(unsupportedRequestError, body)).toEqual([]);
    expect(body.error.message).toMatch(new RegExp(`^Unsupported post request\\. Object with ID '${a.phoneNumberId}'`));
    // Media uploads on that number are refused the same way.
    const upload = await fetch(`${h.sim.url}/${API_VERSION}/${a.phoneNumberId}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${second.accessToken}`, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--\r\n',
    });
    expect(problems(unsupportedRequestError, await upload.json())).toEqual([]);
    expect(h.sim.groundTruth().messages).toEqual([]);

    // Each account's own token sends from its own numbers.
    accepted(await sendTemplate(clientFor(h, a, first.accessToken), phone, 'm-2', 'order_update'));
    accepted(await sendTemplate(clientFor(h, c, second.accessToken), phone, 'm-3', 'order_update'));
    expect(h.sim.groundTruth().messages.map((m) => [m.messageId, m.phoneNumberId, m.wabaId])).toEqual([
      ['m-2', a.phoneNumberId, first.wabaId],
      ['m-3', c.phoneNumberId, second.wabaId],
    ]);
  });

  it('keeps each account’s templates to itself', async () => {
    const { h, first, second } = await start();
    const list = async (wabaId: string, token: string) => {
      const response = await fetch(`${h.sim.url}/v24.0/${wabaId}/message_templates?fields=name,language`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as { data?: Array<{ id: string; name: string }> } };
    };
    const mine = await list(first.wabaId, first.accessToken);
    const theirs = await list(second.wabaId, second.accessToken);
    expect(mine.body.data?.map((t) => t.name)).toEqual(theirs.body.data?.map((t) => t.name));
    const theirIds = new Set(theirs.body.data?.map((t) => t.id));
    expect(mine.body.data?.some((t) => theirIds.has(t.id))).toBe(false);
    expect(problems(unsupportedRequestError, (await list(second.wabaId, first.accessToken)).body)).toEqual([]);
    const otherTemplate = await fetch(`${h.sim.url}/v24.0/${theirs.body.data?.[0]?.id ?? ''}`, {
      headers: { authorization: `Bearer ${first.accessToken}` },
    });
    expect(problems(unsupportedRequestError, await otherTemplate.json())).toEqual([]);

    // A change to the second account's template is that account's webhook.
    h.sim.templates.recategorise('order_update', 'en_US', 'MARKETING', second.wabaId);
    await h.sim.advance(HOUR);
    const posted = h.receiver.received.filter((r) => r.body.entry[0]?.changes[0]?.field === 'template_category_update');
    expect(posted.map((r) => [r.body.entry[0]?.id, r.check.ok && r.check.secretIndex])).toEqual([[second.wabaId, 1]]);
    expect(h.sim.groundTruth().accounts.map((a) => a.templates.find((t) => t.name === 'order_update')?.category)).toEqual([
      'UTILITY',
      'MARKETING',
    ]);
  });
});

describe('several numbers: webhooks', () => {
  it('names the sending number and its account, signed with that account’s app secret', async () => {
    const { h, first, second, b, d } = await start({ webhooks: { ...ORDERLY_WEBHOOKS, batchRate: 1, maxBatch: 10 } });
    const users = h.sim.users.filter(ordinaryCappedUser);
    const fromB = clientFor(h, b, first.accessToken);
    const fromD = clientFor(h, d, second.accessToken);
    for (let i = 0; i < 6; i++) {
      accepted(await sendTemplate(i % 2 === 0 ? fromB : fromD, users[i]?.phone ?? '', `w-${i}`, 'order_update'));
    }
    h.sim.act.writes(users[6]?.phone ?? '', 'hello D', d.phoneNumberId);
    await h.sim.advance(DAY);

    const sentFrom = new Map(h.sim.groundTruth().messages.map((m) => [m.wamid, m.phoneNumberId]));
    let batched = 0;
    expect(h.receiver.received.length).toBeGreaterThan(0);
    for (const r of h.receiver.received) {
      expect(strictProblems(r.body, 'current')).toEqual([]);
      const [entry] = r.body.entry;
      const wabaId = entry?.id ?? '';
      // The receiver tries [first secret, second secret]: the index says which account signed.
      expect(r.check.ok && r.check.secretIndex).toBe(wabaId === first.wabaId ? 0 : 1);
      for (const change of entry?.changes ?? []) {
        const metadata = change.value['metadata'] as { phone_number_id: string; display_phone_number: string };
        const number = [b, d].find((n) => n.phoneNumberId === metadata.phone_number_id);
        expect(number?.displayPhoneNumber).toBe(metadata.display_phone_number);
        expect(wabaId).toBe(number === b ? first.wabaId : second.wabaId);
        for (const s of (change.value['statuses'] as Array<{ id: string }> | undefined) ?? []) {
          expect(sentFrom.get(s.id)).toBe(metadata.phone_number_id);
        }
      }
      if ((entry?.changes.length ?? 0) > 1) batched++;
    }
    // Statuses did share POSTs, each POST with statuses of one number only.
    expect(batched).toBeGreaterThan(0);
    const inbound = h.receiver.changes('messages').find((c) => (c.value['messages'] as unknown[] | undefined) !== undefined);
    expect(inbound?.value['metadata']).toEqual({ display_phone_number: d.displayPhoneNumber, phone_number_id: d.phoneNumberId });
  });
});

describe('several numbers: quality', () => {
  it('drops only the quality of the number that earned it, and says so in that number’s webhook', async () => {
    const { h, first, second, a, c } = await start({
      cap: { minPerWindow: 0, maxPerWindow: 0 },
      quality: { minSample: 1, yellowAt: 0.2, redAt: 0.5, capRetrySignal: 1 },
    });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const fromC = clientFor(h, c, second.accessToken);
    // Capped at once (a cap of 0), then a retry into the lock-out: a spam signal against C alone.
    accepted(await sendTemplate(fromC, user.phone, 'q-1'));
    accepted(await sendTemplate(fromC, user.phone, 'q-2'));
    await h.sim.advance(HOUR);

    const truth = h.sim.groundTruth();
    expect(truth.numbers.map((n) => [n.phoneNumberId, n.qualityRating])).toEqual([
      [a.phoneNumberId, 'GREEN'],
      [first.numbers[1]?.phoneNumberId, 'GREEN'],
      [c.phoneNumberId, 'RED'],
      [second.numbers[1]?.phoneNumberId, 'GREEN'],
    ]);
    expect(truth.qualityRating).toBe('GREEN'); // the first number's
    const updates = h.receiver.received.filter((r) => r.body.entry[0]?.changes[0]?.field === 'phone_number_quality_update');
    expect(updates.map((r) => [r.body.entry[0]?.id, r.body.entry[0]?.changes[0]?.value, r.check.ok && r.check.secretIndex])).toEqual([
      [second.wabaId, { display_phone_number: c.displayPhoneNumber, event: 'FLAGGED', max_daily_conversations_per_business: 'TIER_2K' }, 1],
    ]);
    const rating = async (id: string, token: string) =>
      (
        (await (
          await fetch(`${h.sim.url}/v24.0/${id}?fields=quality_rating`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as {
          quality_rating: string;
        }
      ).quality_rating;
    expect(await rating(c.phoneNumberId, second.accessToken)).toBe('RED');
    expect(await rating(a.phoneNumberId, first.accessToken)).toBe('GREEN');
  });
});

describe('several numbers: the per-user marketing cap', () => {
  it('is the recipient’s: a user capped by number A is capped for number B of another account', async () => {
    const { h, first, second, a, c } = await start({
      cap: { minPerWindow: 1, maxPerWindow: 1 },
      population: { size: 200, otherMarketingPerDay: { min: 0, max: 0 } },
    });
    const [user, other] = h.sim.users.filter(ordinaryCappedUser) as [(typeof h.sim.users)[0], (typeof h.sim.users)[0]];
    const fromA = clientFor(h, a, first.accessToken);
    const fromC = clientFor(h, c, second.accessToken);
    const toUserFromA = accepted(await sendTemplate(fromA, user.phone, 'cap-1')).wamid;
    await h.sim.advance(HOUR);
    const toUserFromC = accepted(await sendTemplate(fromC, user.phone, 'cap-2')).wamid;
    const toOtherFromC = accepted(await sendTemplate(fromC, other.phone, 'cap-3')).wamid;
    await h.sim.advance(DAY);

    const fate = (wamid: string) => h?.sim.groundTruth().messages.find((m) => m.wamid === wamid);
    expect(fate(toUserFromA)).toMatchObject({ phoneNumberId: a.phoneNumberId, errorCode: null });
    expect(fate(toUserFromA)?.deliveredAt).not.toBeNull();
    expect(fate(toUserFromC)).toMatchObject({ phoneNumberId: c.phoneNumberId, status: 'failed', errorCode: 131049 });
    // Number C itself can deliver marketing: to someone whose cap is not used up.
    expect(fate(toOtherFromC)?.deliveredAt).not.toBeNull();
    const failed = h.receiver.statusesFor(toUserFromC).find((s) => s.status === 'failed');
    expect(failed?.errors?.[0]?.code).toBe(131049);
  });
});
