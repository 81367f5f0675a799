import { afterEach, describe, expect, it } from 'vitest';
import { createPhoneNumberApiClient } from '../src/adapters/cloud-api/phone-number-api-client.js';
import { simulatedAccounts, startSimulator, type SimAccountConfig, type Simulator } from '../src/adapters/simulator/index.js';
import { VirtualClock } from '../src/ports/clock.js';
import {
  invalidTokenError,
  nonexistingFieldError,
  phoneNumberNode,
  phoneNumbersPage,
  problems,
  unsupportedRequestError,
} from './meta-phone-numbers-strict-schema.js';

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

/** Two accounts; the first with three numbers, one of them upgraded to 1,000 mps and one restricted. */
function accounts(): SimAccountConfig[] {
  const [first, second] = simulatedAccounts({ accounts: 2, numbers: 3 }) as [SimAccountConfig, SimAccountConfig];
  first.messagingLimit = 'TIER_10K';
  second.messagingLimit = 'TIER_10K'; // one portfolio, one limit
  const [, upgraded, restricted] = first.numbers as [unknown, SimAccountConfig['numbers'][0], SimAccountConfig['numbers'][0]];
  upgraded.throughputMps = 1000;
  restricted.status = 'RESTRICTED';
  restricted.nameStatus = 'PENDING_REVIEW';
  restricted.qualityRating = 'YELLOW';
  return [first, second];
}

async function start(): Promise<Simulator> {
  sim = await startSimulator({ seed: 5, population: { size: 10 }, accounts: accounts() }, { clock: new VirtualClock() });
  return sim;
}

async function get(s: Simulator, path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${s.url}/${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A `paging.next`/`previous` link, asked of the simulator instead of graph.facebook.com. */
async function follow(s: Simulator, link: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(link);
  return get(s, `${url.pathname.slice(1)}${url.search}`, token);
}

interface Page {
  data: Array<Record<string, unknown>>;
  paging?: { cursors: { before: string; after: string }; previous?: string; next?: string };
  summary?: { total_count: number };
}

describe('GET /{WABA_ID}/phone_numbers', () => {
  it('walks three numbers one page at a time through paging.next, each page as Meta shapes it', async () => {
    const s = await start();
    const [account] = s.config.accounts as [SimAccountConfig];
    const pages: Page[] = [];
    let answer = await get(s, `v24.0/${account.wabaId}/phone_numbers?limit=1&summary=total_count`, account.accessToken);
    for (;;) {
      expect(answer.status).toBe(200);
      expect(problems(phoneNumbersPage, answer.body)).toEqual([]);
      const page = answer.body as unknown as Page;
      pages.push(page);
      if (page.paging?.next === undefined) break;
      expect(pages.length).toBeLessThan(4);
      answer = await follow(s, page.paging.next, account.accessToken);
    }
    expect(pages.map((p) => p.data.map((n) => n['id']))).toEqual(account.numbers.map((n) => [n.phoneNumberId]));
    // Meta's default fields, and only them.
    for (const p of pages)
      expect(Object.keys(p.data[0] ?? {}).sort()).toEqual(['display_phone_number', 'id', 'quality_rating', 'verified_name']);
    expect(pages.map((p) => p.summary)).toEqual([{ total_count: 3 }, { total_count: 3 }, { total_count: 3 }]);
    // `previous` exactly where there is an earlier page, `next` where there is a later one.
    expect(pages.map((p) => [p.paging?.previous !== undefined, p.paging?.next !== undefined])).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
    expect(pages[2]?.data[0]).toMatchObject({ quality_rating: 'YELLOW', verified_name: 'Simulated Shop' });

    const back = await follow(s, pages[2]?.paging?.previous ?? '', account.accessToken);
    expect(problems(phoneNumbersPage, back.body)).toEqual([]);
    expect(back.body).toEqual(pages[1]);
  });

  it('reads every number in one page by default, with the fields asked for', async () => {
    const s = await start();
    const [account] = s.config.accounts as [SimAccountConfig];
    const answer = await get(s, `v24.0/${account.wabaId}/phone_numbers?fields=status,name_status,throughput`, account.accessToken);
    expect(problems(phoneNumbersPage, answer.body)).toEqual([]);
    const page = answer.body as unknown as Page;
    expect(page.paging?.next).toBeUndefined();
    expect(page.paging?.previous).toBeUndefined();
    expect(page.summary).toBeUndefined();
    expect(page.data).toEqual([
      { status: 'CONNECTED', name_status: 'APPROVED', throughput: { level: 'STANDARD' }, id: account.numbers[0]?.phoneNumberId },
      { status: 'CONNECTED', name_status: 'APPROVED', throughput: { level: 'HIGH' }, id: account.numbers[1]?.phoneNumberId },
      { status: 'RESTRICTED', name_status: 'PENDING_REVIEW', throughput: { level: 'STANDARD' }, id: account.numbers[2]?.phoneNumberId },
    ]);
  });

  it('refuses an unknown field, another account’s token and an unknown token as Graph does', async () => {
    const s = await start();
    const [mine, theirs] = s.config.accounts as [SimAccountConfig, SimAccountConfig];

    const unknownField = await get(s, `v24.0/${mine.wabaId}/phone_numbers?fields=id,colour`, mine.accessToken);
    expect(unknownField.status).toBe(400);
    expect(problems(nonexistingFieldError, unknownField.body)).toEqual([]);
    expect((unknownField.body['error'] as { message: string }).message).toBe(
      '(#100) Tried accessing nonexisting field (colour) on node type (WhatsAppBusinessPhoneNumber)',
    );

    const otherAccount = await get(s, `v24.0/${mine.wabaId}/phone_numbers`, theirs.accessToken);
    expect(otherAccount.status).toBe(400);
    expect(problems(unsupportedRequestError, otherAccount.body)).toEqual([]);
    expect((otherAccount.body['error'] as { message: string }).message).toContain(`Object with ID '${mine.wabaId}' does not exist`);
    // A WABA that does not exist reads the same: nothing tells the two apart.
    const missing = await get(s, 'v24.0/999000111222333/phone_numbers', mine.accessToken);
    expect(problems(unsupportedRequestError, missing.body)).toEqual([]);

    const badToken = await get(s, `v24.0/${mine.wabaId}/phone_numbers`, 'no-such-token');
    expect(badToken.status).toBe(401);
    expect(problems(invalidTokenError, badToken.body)).toEqual([]);

    // The other account's own numbers are its own to list.
    const theirsListed = await get(s, `v24.0/${theirs.wabaId}/phone_numbers`, theirs.accessToken);
    expect(((theirsListed.body as unknown as Page).data ?? []).map((n) => n['id'])).toEqual(theirs.numbers.map((n) => n.phoneNumberId));
  });
});

describe('GET /{PHONE_NUMBER_ID}', () => {
  it('answers Meta’s default fields, and each documented field set asked for', async () => {
    const s = await start();
    const [account] = s.config.accounts as [SimAccountConfig];
    const [plain, upgraded, restricted] = account.numbers as [
      SimAccountConfig['numbers'][0],
      SimAccountConfig['numbers'][0],
      SimAccountConfig['numbers'][0],
    ];
    const read = async (version: string, id: string, fields?: string) => {
      const answer = await get(s, `${version}/${id}${fields === undefined ? '' : `?fields=${fields}`}`, account.accessToken);
      expect(answer.status).toBe(200);
      expect(problems(phoneNumberNode, answer.body)).toEqual([]);
      return answer.body;
    };

    expect(await read('v24.0', plain.phoneNumberId)).toEqual({
      id: plain.phoneNumberId,
      display_phone_number: plain.displayPhoneNumber,
      verified_name: plain.verifiedName,
      quality_rating: 'GREEN',
    });
    expect(
      await read(
        'v24.0',
        plain.phoneNumberId,
        'status,name_status,code_verification_status,platform_type,account_mode,is_official_business_account',
      ),
    ).toEqual({
      status: 'CONNECTED',
      name_status: 'APPROVED',
      code_verification_status: 'VERIFIED',
      platform_type: 'CLOUD_API',
      account_mode: 'LIVE',
      is_official_business_account: false,
      id: plain.phoneNumberId,
    });
    expect(await read('v24.0', upgraded.phoneNumberId, 'throughput,whatsapp_business_manager_messaging_limit')).toEqual({
      throughput: { level: 'HIGH' },
      whatsapp_business_manager_messaging_limit: 'TIER_10K',
      id: upgraded.phoneNumberId,
    });
    // v23 still has the deprecated per-number field.
    expect(await read('v23.0', plain.phoneNumberId, 'messaging_limit_tier')).toEqual({
      messaging_limit_tier: 'TIER_10K',
      id: plain.phoneNumberId,
    });

    expect(await read('v24.0', plain.phoneNumberId, 'health_status')).toEqual({
      health_status: {
        can_send_message: 'AVAILABLE',
        entities: [
          { entity_type: 'PHONE_NUMBER', id: plain.phoneNumberId, can_send_message: 'AVAILABLE' },
          { entity_type: 'WABA', id: account.wabaId, can_send_message: 'AVAILABLE' },
          { entity_type: 'BUSINESS', id: account.portfolioId, can_send_message: 'AVAILABLE' },
        ],
      },
      id: plain.phoneNumberId,
    });
    const limited = (await read('v24.0', restricted.phoneNumberId, 'quality_rating,health_status')) as {
      quality_rating: string;
      health_status: { can_send_message: string; entities: Array<{ entity_type: string; can_send_message: string }> };
    };
    expect(limited.quality_rating).toBe('YELLOW');
    expect(limited.health_status.can_send_message).toBe('LIMITED');
    expect(limited.health_status.entities.find((e) => e.entity_type === 'PHONE_NUMBER')?.can_send_message).toBe('LIMITED');
  });

  it('has each messaging-limit field only in its API versions, and refuses unknown fields', async () => {
    const s = await start();
    const [account] = s.config.accounts as [SimAccountConfig];
    const id = account.numbers[0]?.phoneNumberId ?? '';
    for (const [version, field] of [
      ['v24.0', 'messaging_limit_tier'],
      ['v25.0', 'messaging_limit_tier'],
      ['v23.0', 'whatsapp_business_manager_messaging_limit'],
      ['v24.0', 'favourite_colour'],
    ] as const) {
      const answer = await get(s, `${version}/${id}?fields=id,${field}`, account.accessToken);
      expect(answer.status).toBe(400);
      expect(problems(nonexistingFieldError, answer.body)).toEqual([]);
      expect((answer.body['error'] as { message: string }).message).toContain(`(${field})`);
    }
  });

  it('refuses another account’s number with subcode 33 and an unknown token with 190', async () => {
    const s = await start();
    const [mine, theirs] = s.config.accounts as [SimAccountConfig, SimAccountConfig];
    const id = mine.numbers[0]?.phoneNumberId ?? '';
    const other = await get(s, `v24.0/${id}?fields=status`, theirs.accessToken);
    expect(other.status).toBe(400);
    expect(problems(unsupportedRequestError, other.body)).toEqual([]);
    const unknown = await get(s, `v24.0/${id}`, 'nobody');
    expect(unknown.status).toBe(401);
    expect(problems(invalidTokenError, unknown.body)).toEqual([]);
    // Each refusal counts as the synchronous error it is.
    expect(s.groundTruth().syncErrors).toEqual({ 100: 1, 190: 1 });
  });
});

describe("Pacer's phone-number client against the simulator", () => {
  it('pages through every number and reads each one, on v23 and on v24', async () => {
    const s = await start();
    const [account] = s.config.accounts as [SimAccountConfig];
    for (const apiVersion of ['v23.0', 'v24.0']) {
      const api = createPhoneNumberApiClient({ baseUrl: s.url, apiVersion, accessToken: account.accessToken, pageSize: 1 });
      try {
        const seen: unknown[] = [];
        let after: string | undefined;
        for (let page = 0; page < 5; page++) {
          const answer = await api.listPhoneNumbers(account.wabaId, after);
          if (answer.kind !== 'ok') throw new Error(JSON.stringify(answer));
          seen.push(...answer.page.data);
          if (answer.page.after === null) break;
          after = answer.page.after;
        }
        expect(seen.map((n) => (n as { id: string }).id)).toEqual(account.numbers.map((n) => n.phoneNumberId));
        const limitField = apiVersion === 'v24.0' ? 'whatsapp_business_manager_messaging_limit' : 'messaging_limit_tier';
        expect(seen.map((n) => (n as Record<string, unknown>)[limitField])).toEqual(['TIER_10K', 'TIER_10K', 'TIER_10K']);
        const one = await api.getPhoneNumber(account.numbers[1]?.phoneNumberId ?? '');
        expect(one).toMatchObject({ kind: 'ok', number: { throughput: { level: 'HIGH' }, status: 'CONNECTED' } });
      } finally {
        await api.close();
      }
    }
  });
});
