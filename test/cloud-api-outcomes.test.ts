import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, DAY, SECOND } from '../src/core/time.js';
import { accepted, ORDERLY_WEBHOOKS, ordinaryCappedUser, pickUser, sendTemplate, startHarness, type Harness } from './simulator-harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const population = { size: 400, experimentRate: 0.05, stoppedRate: 0.05, notOnWhatsAppRate: 0.05 };

describe('client ↔ simulator: accepted sends', () => {
  it('accepts a template, echoes our id in every status, and prices it PMP', async () => {
    h = await startHarness({ seed: 11, population, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const result = accepted(await sendTemplate(h.client, `+${user.phone}`, 'msg-1', 'order_update'));
    expect(result).toMatchObject({ messageStatus: 'accepted', waId: user.phone, httpStatus: 200 });
    expect(result.wamid).toMatch(/^wamid\./);

    await h.sim.advance(DAY);
    const statuses = h.receiver.statusesFor(result.wamid);
    expect(statuses.map((s) => s.status)).toContain('sent');
    for (const s of statuses) {
      expect(s.biz_opaque_callback_data).toBe('msg-1');
      expect(s.recipient_id).toBe(user.phone);
      expect(s.timestamp).toMatch(/^\d+$/);
    }
    expect(statuses.find((s) => s.status === 'sent')?.pricing).toEqual({
      billable: true,
      pricing_model: 'PMP',
      type: 'regular',
      category: 'utility',
    });
    expect(h.receiver.received.every((r) => r.check.ok)).toBe(true);
    const truth = h.sim.groundTruth().messages.find((m) => m.wamid === result.wamid);
    expect(truth?.messageId).toBe('msg-1');
  });

  it('sends to a business-scoped user id through `recipient`', async () => {
    h = await startHarness({ seed: 11, population, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const result = accepted(
      await h.client.send({
        type: 'template',
        endpoint: 'messages',
        to: { kind: 'user_id', userId: user.userId },
        messageId: 'msg-bsuid',
        template: { name: 'order_update', language: 'en_US' },
      }),
    );
    expect(result.userId).toBe(user.userId);
    expect(h.sim.groundTruth().messages[0]?.to).toBe(user.phone);
  });

  it('sends marketing through /marketing_messages (marketing_lite) and refuses utility there (134100)', async () => {
    h = await startHarness({ seed: 11, population, webhooks: ORDERLY_WEBHOOKS, cap: { uncappedRegions: ['IN', 'BR', 'ID', 'MX'] } });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const ok = accepted(await sendTemplate(h.client, user.phone, 'mm-1', 'spring_sale', 'marketing_messages'));
    const refused = await sendTemplate(h.client, user.phone, 'mm-2', 'order_update', 'marketing_messages');
    expect(refused).toMatchObject({ kind: 'rejected', code: 134100, errorClass: 'marketing_api_refused' });
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(ok.wamid).find((s) => s.status === 'sent')?.pricing).toMatchObject({ category: 'marketing_lite' });
  });

  it('sends free-form text only inside the window: 131047 before the user writes, delivered after', async () => {
    h = await startHarness({ seed: 11, population, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const text = (id: string) => h!.client.send({ type: 'text', to: { kind: 'phone', phone: user.phone }, messageId: id, body: 'Hello' });
    const early = accepted(await text('t-1'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(early.wamid)[0]?.errors?.[0]?.code).toBe(131047);

    h.sim.act.writes(user.phone, 'Hi, any news?');
    await h.sim.advance(10 * SECOND);
    expect(h.receiver.inboundMessages().at(-1)).toMatchObject({ from: user.phone, type: 'text', text: { body: 'Hi, any news?' } });
    const later = accepted(await text('t-2'));
    await h.sim.advance(DAY);
    const sent = h.receiver.statusesFor(later.wamid).find((s) => s.status === 'sent');
    expect(sent?.pricing).toEqual({ billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' });
  });
});

describe('client ↔ simulator: failures that arrive as webhooks after a 200', () => {
  it('131049 when the per-user cap is full, as a failed status with Meta’s error shape', async () => {
    h = await startHarness({ seed: 12, population, webhooks: ORDERLY_WEBHOOKS, cap: { minPerWindow: 0, maxPerWindow: 0 } });
    const user = pickUser(h.sim, ordinaryCappedUser);
    const result = accepted(await sendTemplate(h.client, user.phone, 'cap-1'));
    await h.sim.advance(HOUR);
    const [failed] = h.receiver.statusesFor(result.wamid);
    expect(failed).toMatchObject({ status: 'failed', recipient_id: user.phone, biz_opaque_callback_data: 'cap-1' });
    expect(failed?.errors?.[0]).toEqual({
      code: 131049,
      title: 'This message was not delivered to maintain healthy ecosystem engagement.',
      message: 'This message was not delivered to maintain healthy ecosystem engagement.',
      error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
      href: expect.stringMatching(/error-codes/),
    });
    expect(failed?.pricing).toBeUndefined();
    expect(h.sim.groundTruth().deliveredTo[user.phone]).toBeUndefined();
  });

  it('131049 for marketing to a US +1 number (the US pause), while utility still goes', async () => {
    h = await startHarness({ seed: 13, population, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, (u) => u.country === 'US' && u.onWhatsApp && !u.state.stoppedMarketing);
    const marketing = accepted(await sendTemplate(h.client, user.phone, 'us-1'));
    const utility = accepted(await sendTemplate(h.client, user.phone, 'us-2', 'order_update'));
    await h.sim.advance(DAY);
    expect(h.receiver.statusesFor(marketing.wamid)[0]?.errors?.[0]?.code).toBe(131049);
    expect(h.receiver.statusesFor(utility.wamid).map((s) => s.status)).toContain('sent');
  });

  it('130472 for the experiment group, unless the user opened a window', async () => {
    h = await startHarness({ seed: 14, population, webhooks: ORDERLY_WEBHOOKS });
    const user = pickUser(h.sim, (u) => u.experiment && u.onWhatsApp && !u.state.stoppedMarketing && u.country !== 'US');
    const first = accepted(await sendTemplate(h.client, user.phone, 'exp-1'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(first.wamid)[0]?.errors?.[0]).toMatchObject({
      code: 130472,
      error_data: { details: "Failed to send message because this user's phone number is part of an experiment" },
    });
    h.sim.act.writes(user.phone);
    await h.sim.advance(SECOND);
    const second = accepted(await sendTemplate(h.client, user.phone, 'exp-2'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(second.wamid)[0]?.status).toBe('sent');
  });

  it('131050 after the user stops marketing, announced by a user_preferences webhook; resume lifts it', async () => {
    h = await startHarness({ seed: 15, population, webhooks: ORDERLY_WEBHOOKS, cap: { uncappedRegions: ['IN', 'BR', 'ID', 'MX'] } });
    const user = pickUser(h.sim, ordinaryCappedUser);
    h.sim.act.stopsMarketing(user.phone);
    await h.sim.advance(10 * SECOND);
    const [pref] = h.receiver.changes('user_preferences');
    expect(pref?.value.user_preferences).toEqual([
      {
        wa_id: user.phone,
        user_id: user.userId,
        detail: 'User requested to stop marketing messages',
        category: 'marketing_messages',
        value: 'stop',
        timestamp: expect.any(Number),
      },
    ]);
    const stopped = accepted(await sendTemplate(h.client, user.phone, 'stop-1'));
    const utility = accepted(await sendTemplate(h.client, user.phone, 'stop-2', 'order_update'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(stopped.wamid)[0]?.errors?.[0]?.code).toBe(131050);
    expect(h.receiver.statusesFor(utility.wamid)[0]?.status).toBe('sent');

    h.sim.act.resumesMarketing(user.phone);
    await h.sim.advance(10 * SECOND);
    expect(h.receiver.changes('user_preferences').at(-1)?.value.user_preferences).toMatchObject([{ value: 'resume' }]);
    const resumed = accepted(await sendTemplate(h.client, user.phone, 'stop-3'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(resumed.wamid)[0]?.status).toBe('sent');
  });

  it('131026 for numbers not on WhatsApp, for every category', async () => {
    h = await startHarness({ seed: 16, population, webhooks: ORDERLY_WEBHOOKS });
    const absent = pickUser(h.sim, (u) => !u.onWhatsApp);
    const a = accepted(await sendTemplate(h.client, absent.phone, 'u-1', 'order_update'));
    const b = accepted(await sendTemplate(h.client, '15550001234', 'u-2', 'login_code'));
    await h.sim.advance(HOUR);
    expect(h.receiver.statusesFor(a.wamid)[0]?.errors?.[0]?.code).toBe(131026);
    expect(h.receiver.statusesFor(b.wamid)[0]?.errors?.[0]?.code).toBe(131026);
    expect(h.sim.groundTruth().asyncFailures).toEqual({ 131026: 2 });
  });
});
