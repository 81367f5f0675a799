import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR, iso, MINUTE } from '../src/core/time.js';
import { body, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Recipient {
  messageId: number;
  contactId: number;
  to: string;
  status: string;
  outcome: string | null;
  nextAttemptAt: string | null;
  attempts: number;
  lastError: { code: number; class: string; meaning: string | null } | null;
  latestDecision: { kind: string; reason: string; until: string | null } | null;
}
type Page = { items: Recipient[]; next: string | null };

/** `n` contacts with marketing consent, tagged vip, and a marketing template. */
async function audience(rig: ApiRig, n: number): Promise<number[]> {
  const { ids } = await importContactRecords(
    rig.store,
    Array.from({ length: n }, (_, i) => ({
      phoneE164: `+4479111234${String(i).padStart(2, '0')}`,
      name: null,
      tags: ['vip'],
      attributes: {},
      consent: { marketing: true },
    })),
    'test',
    DEFAULT_POLICY,
    T0 - HOUR,
  );
  await rig.store.upsertTemplates(
    [{ name: 'spring_sale', language: 'en_US', category: 'marketing', status: 'approved', quality: null, pausedUntil: null }],
    T0,
  );
  return ids;
}

async function createDraft(rig: ApiRig): Promise<number> {
  const r = await rig.call('POST', '/api/v1/campaigns', {
    body: { name: 'Spring', template: { name: 'spring_sale' }, segment: { tagsAll: ['vip'] } },
  });
  expect(r.status, r.text).toBe(201);
  return body<{ id: number }>(r).id;
}

async function allRecipients(rig: ApiRig, url: string, limit: number): Promise<{ items: Recipient[]; pages: number }> {
  const items: Recipient[] = [];
  let pages = 0;
  for (let after: string | null = ''; after !== null;) {
    const r = await rig.call('GET', `${url}${url.includes('?') ? '&' : '?'}limit=${limit}${after === '' ? '' : `&after=${after}`}`);
    expect(r.status, r.text).toBe(200);
    const page = body<Page>(r);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    pages++;
    after = page.next;
  }
  return { items, pages };
}

describe.each(BACKENDS)('REST API: a campaign from create to cancel ($name)', (backend) => {
  it('creates, schedules, starts (once), pauses, resumes and cancels; wrong transitions answer 409', async () => {
    const rig = await startApi(backend);
    await audience(rig, 3);
    const id = await createDraft(rig);
    const url = `/api/v1/campaigns/${id}`;
    // Actions that need a started campaign refuse a draft.
    expect(await rig.call('POST', `${url}/pause`)).toMatchObject({ status: 409, json: { error: 'invalid_transition' } });
    expect(await rig.call('POST', `${url}/resume`)).toMatchObject({ status: 409, json: { error: 'invalid_transition' } });
    // Scheduled, cleared, scheduled again.
    const at = T0 + 2 * HOUR;
    expect(await rig.call('POST', `${url}/schedule`, { body: { scheduledAt: iso(at) } })).toMatchObject({
      status: 200,
      json: { id, status: 'draft', scheduledAt: iso(at) },
    });
    expect(await rig.call('POST', `${url}/schedule`, { body: { scheduledAt: null } })).toMatchObject({ json: { scheduledAt: null } });
    expect(await rig.call('POST', `${url}/schedule`, { body: { scheduledAt: iso(at) } })).toMatchObject({ status: 200 });
    const started = await rig.call('POST', `${url}/start`);
    expect(started).toMatchObject({
      status: 200,
      json: { id, status: 'running', scheduledAt: iso(at), start: { scanned: 3, matched: 3, inserted: 3 }, counters: { queued: 3 } },
    });
    // The rows fall due at the scheduled time.
    const recipients = body<Page>(await rig.call('GET', `${url}/recipients`)).items;
    expect(recipients.map((r) => r.nextAttemptAt)).toEqual([iso(at), iso(at), iso(at)]);
    // Starting again adds nothing; a start time can no longer change.
    expect(await rig.call('POST', `${url}/start`, { body: {} })).toMatchObject({ status: 200, json: { start: { inserted: 0 } } });
    expect(await rig.call('POST', `${url}/schedule`, { body: { scheduledAt: null } })).toMatchObject({
      status: 409,
      json: { error: 'invalid_transition', message: expect.stringContaining('running') as string },
    });
    expect(await rig.call('POST', `${url}/resume`)).toMatchObject({ status: 409 });
    expect(await rig.call('POST', `${url}/pause`, { body: { reason: 'wrong coupon' } })).toMatchObject({
      status: 200,
      json: { status: 'paused', pauseReason: 'wrong coupon' },
    });
    // A start while paused plans new matches but does not lift the pause.
    await importContactRecords(
      rig.store,
      [{ phoneE164: '+447911123499', name: null, tags: ['vip'], attributes: {}, consent: { marketing: true } }],
      'test',
      DEFAULT_POLICY,
      T0,
    );
    expect(await rig.call('POST', `${url}/start`)).toMatchObject({ status: 200, json: { status: 'paused', start: { inserted: 1 } } });
    expect(await rig.call('POST', `${url}/resume`)).toMatchObject({ status: 200, json: { status: 'running', pauseReason: null } });
    expect(await rig.call('POST', `${url}/cancel`)).toMatchObject({
      status: 200,
      json: { status: 'cancelled', counters: { cancelled: 4, queued: 0 } },
    });
    expect(await rig.call('POST', `${url}/start`)).toMatchObject({
      status: 409,
      json: { error: 'invalid_transition', message: expect.stringContaining('cancelled') as string },
    });
    expect(await rig.call('POST', `${url}/cancel`)).toMatchObject({ status: 409 });
    expect(await rig.call('POST', `${url}/schedule`, { body: { scheduledAt: iso(at) } })).toMatchObject({ status: 409 });
    const ended = await allRecipients(rig, `${url}/recipients?outcome=cancelled`, 10);
    expect(ended.items).toHaveLength(4);
    expect(ended.items.every((r) => r.status === 'done' && r.nextAttemptAt === null)).toBe(true);
  });

  it('answers 404 for unknown campaigns, and refuses bad bodies by field', async () => {
    const rig = await startApi(backend);
    await audience(rig, 1);
    const id = await createDraft(rig);
    for (const action of ['start', 'pause', 'resume', 'cancel']) {
      expect(await rig.call('POST', `/api/v1/campaigns/999/${action}`)).toMatchObject({ status: 404, json: { error: 'not_found' } });
    }
    expect(await rig.call('POST', '/api/v1/campaigns/999/schedule', { body: { scheduledAt: null } })).toMatchObject({ status: 404 });
    expect(await rig.call('GET', '/api/v1/campaigns/999/recipients')).toMatchObject({ status: 404 });
    const refusals: Array<[string, unknown, string]> = [
      ['schedule', {}, 'scheduledAt'],
      ['schedule', { scheduledAt: 'soon' }, 'scheduledAt'],
      ['schedule', { scheduledAt: null, when: 1 }, 'when'],
      ['start', { now: true }, 'now'],
      ['pause', { reason: 'x', until: 'later' }, 'until'],
      ['resume', { force: true }, 'force'],
      ['cancel', { why: 'x' }, 'why'],
    ];
    for (const [action, payload, path] of refusals) {
      const r = await rig.call('POST', `/api/v1/campaigns/${id}/${action}`, { body: payload });
      expect(r, `${action} ${JSON.stringify(payload)}`).toMatchObject({ status: 400, json: { error: 'invalid_body', issues: [{ path }] } });
    }
    expect((await rig.store.getCampaign(id))?.status).toBe('draft');
    // A start time at or after the campaign's end is refused by name.
    const ends = await rig.call('POST', '/api/v1/campaigns', {
      body: { name: 'Ends', template: { name: 'spring_sale' }, endsAt: iso(T0 + HOUR) },
    });
    const endsId = body<{ id: number }>(ends).id;
    expect(await rig.call('POST', `/api/v1/campaigns/${endsId}/schedule`, { body: { scheduledAt: iso(T0 + 2 * HOUR) } })).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'scheduledAt' }] },
    });
    expect((await rig.store.getCampaign(endsId))?.scheduledAt).toBeNull();
  });

  it('answers 409 when a campaign cannot start as it is, planning nothing', async () => {
    const rig = await startApi(backend);
    await audience(rig, 2);
    const id = await createDraft(rig);
    // Its pool names numbers Pacer does not know (as a database edited by hand might).
    await rig.place.raw(`UPDATE campaigns SET sender_pool = '{"by":"spread","numbers":["111111111","222222222"]}' WHERE id = ${id}`);
    expect(await rig.call('POST', `/api/v1/campaigns/${id}/start`)).toMatchObject({
      status: 409,
      json: { error: 'cannot_start', message: expect.stringContaining('is not a known sender') as string },
    });
    expect((await rig.store.campaignCounters(id)).total).toBe(0);
    expect((await rig.store.getCampaign(id))?.status).toBe('draft');
  });

  it('pages every recipient without duplicates or gaps, each with its status, outcome, error and latest decision', async () => {
    const rig = await startApi(backend);
    const contacts = await audience(rig, 11);
    const id = await createDraft(rig);
    await rig.call('POST', `/api/v1/campaigns/${id}/start`);
    const url = `/api/v1/campaigns/${id}/recipients`;
    const all = await allRecipients(rig, url, 500);
    expect(all.pages).toBe(1);
    expect(all.items).toHaveLength(11);
    for (const limit of [1, 3, 4, 11]) {
      const paged = await allRecipients(rig, url, limit);
      expect(paged.items.map((r) => r.messageId)).toEqual(all.items.map((r) => r.messageId));
      expect(paged.pages).toBe(Math.ceil(11 / limit));
    }
    expect(new Set(all.items.map((r) => r.contactId))).toEqual(new Set(contacts));
    expect(all.items.every((r) => /^\+44•+\d{3}$/.test(r.to) && r.status === 'queued' && r.latestDecision === null)).toBe(true);
    // One capped and waiting for its retry, one held for a window.
    const [a, b] = await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: MINUTE, limit: 2 });
    if (a === undefined || b === undefined) throw new Error('two rows expected');
    await rig.store.appendDecisions([
      { outboxId: a.id, contactId: a.contactId, kind: 'send', reason: 'ok', explanation: 'send', until: null, at: T0 },
    ]);
    await rig.store.recordIntent(a.id, 'w', T0);
    await rig.store.recordAccepted(a.id, 'w', 'wamid.A', T0);
    await rig.store.recordDelivery({ wamid: 'wamid.A', outboxId: a.id }, 'failed', 131049, T0 + 1);
    await rig.store.requeue(a.id, { status: 'queued', until: T0 + 24 * HOUR, capAttempt: true, errorCode: 131049 }, T0 + 1);
    await rig.store.reschedule(b.id, 'w', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, T0);
    const after = await allRecipients(rig, url, 4);
    expect(after.items.find((r) => r.messageId === a.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      nextAttemptAt: iso(T0 + 24 * HOUR),
      lastError: { code: 131049, class: 'per_user_marketing_cap', meaning: expect.any(String) as string },
      latestDecision: { kind: 'send', reason: 'ok', until: null },
    });
    expect(after.items.find((r) => r.messageId === b.id)).toMatchObject({
      status: 'held',
      nextAttemptAt: null,
      lastError: { code: 130472 },
    });
    expect((await allRecipients(rig, `${url}?status=held`, 2)).items.map((r) => r.messageId)).toEqual([b.id]);
    expect((await allRecipients(rig, `${url}?status=queued`, 2)).items).toHaveLength(10);
    for (const query of ['status=asleep', 'outcome=maybe', 'limit=0', 'limit=501', 'after=x']) {
      expect(await rig.call('GET', `${url}?${query}`), query).toMatchObject({ status: 400, json: { error: 'invalid_query' } });
    }
  });
});
