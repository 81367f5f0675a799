import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { DAY, HOUR, SECOND } from '../src/core/time.js';
import {
  accepted,
  API_VERSION,
  ORDERLY_WEBHOOKS,
  ordinaryCappedUser,
  pickUser,
  sendTemplate,
  startHarness,
  type Harness,
} from './simulator-harness.js';
import { advanceUntil } from './await-state.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('client ↔ simulator: synchronous errors, classified by code', () => {
  it('131056 once a user’s pair-rate burst of 45 is used up; one more slot every 6 s', async () => {
    h = await startHarness({ seed: 21, population: { size: 100 }, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const results = [];
    for (let i = 0; i < 46; i++) results.push(await sendTemplate(h.client, user.phone, `p-${i}`, 'order_update'));
    expect(results.slice(0, 45).every((r) => r.kind === 'accepted')).toBe(true);
    expect(results[45]).toMatchObject({ kind: 'rejected', code: 131056, errorClass: 'pair_rate_limit' });
    // Another user is not affected.
    const other = pickUser(h.sim, ordinaryCappedUser, 1);
    expect((await sendTemplate(h.client, other.phone, 'p-other', 'order_update')).kind).toBe('accepted');
    await h.sim.advance(6 * SECOND);
    expect((await sendTemplate(h.client, user.phone, 'p-46', 'order_update')).kind).toBe('accepted');
    expect((await sendTemplate(h.client, user.phone, 'p-47', 'order_update')).kind).toBe('rejected');
  });

  it('130429 past 80 messages per second from the number, and fine again a second later', async () => {
    h = await startHarness({ seed: 22, population: { size: 200 }, webhooks: ORDERLY_WEBHOOKS });
    const users = h.sim.users.slice(0, 81);
    const results = [];
    for (const u of users) results.push(await sendTemplate(h.client, u.phone, `t-${u.index}`, 'order_update'));
    expect(results.filter((r) => r.kind === 'accepted')).toHaveLength(80);
    expect(results[80]).toMatchObject({
      kind: 'rejected',
      code: 130429,
      errorClass: 'throughput_limit',
      message: '(#130429) Rate limit hit',
    });
    await h.sim.advance(SECOND);
    expect((await sendTemplate(h.client, users[80]!.phone, 't-again', 'order_update')).kind).toBe('accepted');
  });

  it('blocks and reports on an irrelevant template turn it RED and pause it; it is reinstated after 3 h', async () => {
    h = await startHarness({
      seed: 23,
      population: { size: 400, experimentRate: 0, stoppedRate: 0, notOnWhatsAppRate: 0, readPropensity: { min: 0.9, max: 1 } },
      templates: [{ name: 'pushy_promo', language: 'en_US', category: 'MARKETING', relevance: 0 }],
      cap: { usMarketingPause: false, uncappedRegions: ['US', 'GB', 'DE', 'ES', 'IN', 'BR', 'ID', 'MX', 'NG', 'ZA', 'JP', 'KR'] },
      reactions: { blockRate: 0.25, reportRate: 0.05 },
      webhooks: ORDERLY_WEBHOOKS,
    });
    for (const [i, u] of h.sim.users.slice(0, 80).entries()) {
      accepted(await sendTemplate(h.client, u.phone, `bad-${i}`, 'pushy_promo'));
    }
    await h.sim.advance(DAY);
    const pause = h.receiver.changes('message_template_status_update').find((c) => c.value.event === 'PAUSED');
    expect(pause?.value).toMatchObject({
      message_template_name: 'pushy_promo',
      message_template_language: 'en_US',
      reason: 'NONE',
      message_template_category: 'MARKETING',
      other_info: { title: 'FIRST_PAUSE' },
    });
    expect(h.receiver.changes('message_template_quality_update').map((c) => c.value.new_quality_score)).toContain('RED');

    const template = h.sim.groundTruth().templates[0];
    expect(template?.pauses).toBeGreaterThanOrEqual(1);
    // Every pause is announced: PAUSED, and DISABLED for the one past the last pause length.
    const pausesAnnounced = h.receiver
      .changes('message_template_status_update')
      .filter((c) => c.value.event === 'PAUSED' || c.value.event === 'DISABLED');
    expect(pausesAnnounced).toHaveLength(template?.pauses ?? -1);
    // The pause lasts 3 h from when it began; by now (a day later) it has been lifted.
    const reinstated = h.receiver.changes('message_template_status_update').find((c) => c.value.event === 'REINSTATED');
    expect(reinstated?.value).toMatchObject({ other_info: { title: 'UNPAUSE' } });
  });

  it('132015 right after the pause webhook, then accepted once the pause ends', async () => {
    h = await startHarness({
      seed: 23,
      population: { size: 400, experimentRate: 0, stoppedRate: 0, notOnWhatsAppRate: 0, readPropensity: { min: 0.9, max: 1 } },
      templates: [{ name: 'pushy_promo', language: 'en_US', category: 'MARKETING', relevance: 0 }],
      cap: { usMarketingPause: false, uncappedRegions: ['US', 'GB', 'DE', 'ES', 'IN', 'BR', 'ID', 'MX', 'NG', 'ZA', 'JP', 'KR'] },
      reactions: { blockRate: 0.25, reportRate: 0.05 },
      webhooks: ORDERLY_WEBHOOKS,
    });
    for (const [i, u] of h.sim.users.slice(0, 80).entries()) accepted(await sendTemplate(h.client, u.phone, `bad-${i}`, 'pushy_promo'));
    // Step until the pause is announced, the way a sender watching webhooks would learn of it.
    const { receiver } = h;
    await advanceUntil(h.sim, 60 * SECOND, DAY, () =>
      receiver.changes('message_template_status_update').some((c) => c.value.event === 'PAUSED'),
    );
    const fresh = h.sim.users[100]!.phone;
    expect(await sendTemplate(h.client, fresh, 'after-pause', 'pushy_promo')).toMatchObject({ kind: 'rejected', code: 132015 });
    await h.sim.advance(3 * HOUR);
    expect((await sendTemplate(h.client, fresh, 'after-unpause', 'pushy_promo')).kind).toBe('accepted');
  });

  it('401 with code 190 for a bad token', async () => {
    h = await startHarness({ seed: 24, population: { size: 10 } }, { accessToken: 'wrong-token' });
    const result = await sendTemplate(h.client, h.sim.users[0]!.phone, 'bad-token', 'order_update');
    expect(result).toMatchObject({ kind: 'rejected', code: 190, errorClass: 'auth_permission', httpStatus: 401, type: 'OAuthException' });
    if (result.kind === 'rejected') expect(result.fbtraceId).toMatch(/^A/);
    expect(h.sim.groundTruth().accepted).toBe(0);
  });

  it('132001 for a template that does not exist', async () => {
    h = await startHarness({ seed: 24, population: { size: 10 } });
    const result = await sendTemplate(h.client, h.sim.users[0]!.phone, 'x', 'no_such_template');
    expect(result).toMatchObject({ kind: 'rejected', code: 132001, errorClass: 'template_problem', httpStatus: 404 });
  });
});

describe('client ↔ simulator: faults become typed transient failures', () => {
  it('HTTP 5xx with a Graph error body is a transient_server rejection', async () => {
    h = await startHarness({ seed: 31, population: { size: 10 } });
    h.sim.faults.inject({ kind: 'http_5xx', status: 503 });
    const result = await sendTemplate(h.client, h.sim.users[0]!.phone, 'f-1', 'order_update');
    expect(result).toMatchObject({ kind: 'rejected', code: 2, errorClass: 'transient_server', httpStatus: 503, isTransient: true });
    expect((await sendTemplate(h.client, h.sim.users[0]!.phone, 'f-2', 'order_update')).kind).toBe('accepted');
  });

  it('a non-JSON 502 page is a transient non_json failure', async () => {
    h = await startHarness({ seed: 31, population: { size: 10 } });
    h.sim.faults.inject({ kind: 'non_json' });
    const result = await sendTemplate(h.client, h.sim.users[0]!.phone, 'f-3', 'order_update');
    expect(result).toMatchObject({ kind: 'transport_failure', reason: 'non_json', transient: true, httpStatus: 502 });
  });

  it('a connection reset is a transient connection_reset failure, and the client does not retry it', async () => {
    h = await startHarness({ seed: 31, population: { size: 10 } });
    h.sim.faults.inject({ kind: 'connection_reset' });
    const result = await sendTemplate(h.client, h.sim.users[0]!.phone, 'f-4', 'order_update');
    expect(result).toMatchObject({ kind: 'transport_failure', reason: 'connection_reset', transient: true, httpStatus: null });
    expect(h.sim.groundTruth().accepted).toBe(0); // no hidden retry reached the API
    expect((await sendTemplate(h.client, h.sim.users[0]!.phone, 'f-5', 'order_update')).kind).toBe('accepted');
  });

  it('an unanswered request becomes a timeout when the client’s clock passes timeoutMs', async () => {
    h = await startHarness({ seed: 31, population: { size: 10 } }, { timeoutMs: 5_000 });
    h.sim.faults.inject({ kind: 'timeout' });
    const pending = sendTemplate(h.client, h.sim.users[0]!.phone, 'f-6', 'order_update');
    await h.sim.faults.whenHeld(1);
    await h.clock.advance(5_000);
    expect(await pending).toMatchObject({ kind: 'transport_failure', reason: 'timeout', transient: true });
  });

  it('a burst of 131016 for the next three requests, then service resumes', async () => {
    h = await startHarness({ seed: 32, population: { size: 10 } });
    h.sim.faults.inject({ kind: 'error_code', code: 131016 }, { count: 3 });
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const r = await sendTemplate(h.client, h.sim.users[i]!.phone, `b-${i}`, 'order_update');
      codes.push(r.kind === 'rejected' ? `${r.code}:${r.errorClass}` : r.kind);
    }
    expect(codes).toEqual(['131016:transient_server', '131016:transient_server', '131016:transient_server', 'accepted']);
  });

  it('a 130429 burst for 2 s of simulator time', async () => {
    h = await startHarness({ seed: 33, population: { size: 10 } });
    h.sim.faults.inject({ kind: 'error_code', code: 130429 }, { forMs: 2_000 });
    expect(await sendTemplate(h.client, h.sim.users[0]!.phone, 'r-1', 'order_update')).toMatchObject({
      code: 130429,
      errorClass: 'throughput_limit',
    });
    await h.sim.advance(1_000);
    expect(await sendTemplate(h.client, h.sim.users[0]!.phone, 'r-2', 'order_update')).toMatchObject({ code: 130429 });
    await h.sim.advance(1_000);
    expect((await sendTemplate(h.client, h.sim.users[0]!.phone, 'r-3', 'order_update')).kind).toBe('accepted');
  });

  it('nothing listening is a transient connection_refused failure', async () => {
    h = await startHarness({ seed: 34, population: { size: 10 } });
    const url = h.sim.url;
    await h.sim.stop();
    const client = createCloudApiClient({ baseUrl: url, apiVersion: API_VERSION, phoneNumberId: '1', accessToken: 't' });
    const result = await sendTemplate(client, '447700900123', 'gone', 'order_update');
    await client.close();
    expect(result).toMatchObject({ kind: 'transport_failure', reason: 'connection_refused', transient: true });
  });
});
