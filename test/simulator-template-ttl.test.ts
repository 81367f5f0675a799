import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTemplateApiClient } from '../src/adapters/cloud-api/template-api-client.js';
import { DAY, HOUR } from '../src/core/time.js';
import type { TemplateApi } from '../src/ports/cloud-api.js';
import { accepted, ORDERLY_WEBHOOKS, pickUser, sendTemplate, startHarness, type Harness } from './simulator-harness.js';

let h: Harness | null = null;
let api: TemplateApi | null = null;
afterEach(async () => {
  await api?.close();
  await h?.close();
  h = null;
  api = null;
});

async function harness(offline = 0): Promise<{ h: Harness; api: TemplateApi }> {
  h = await startHarness({
    population: { size: 40, notOnWhatsAppRate: 0, stoppedRate: 0, experimentRate: 0 },
    webhooks: ORDERLY_WEBHOOKS,
    // Every phone is off for 20 h when a message comes: longer than 12 h, shorter than 30 days.
    reactions: { offline: { rate: offline, forMs: { min: 20 * HOUR, max: 20 * HOUR } } },
  });
  api = createTemplateApiClient({ baseUrl: h.sim.url, apiVersion: 'v24.0', accessToken: h.sim.config.accessToken, scheduler: h.clock });
  return { h, api };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** Graph's error body for a refused edit, strictly. */
const refusal = z
  .object({
    error: z
      .object({
        message: z.literal('Invalid parameter'),
        type: z.literal('OAuthException'),
        code: z.literal(100),
        is_transient: z.literal(false),
        error_user_title: z.string().min(1),
        error_user_msg: z.string().min(1),
        fbtrace_id: z.string().min(1),
      })
      .strict(),
  })
  .strict();

async function templateId(api: TemplateApi, wabaId: string, name: string): Promise<string> {
  const page = await api.listTemplates(wabaId);
  if (page.kind !== 'ok') throw new Error(JSON.stringify(page));
  const t = page.page.data.find((x) => (x as { name: string }).name === name) as { id: string } | undefined;
  if (t === undefined) throw new Error(`no template ${name}`);
  return t.id;
}

describe('the simulator’s template edit (POST /{TEMPLATE_ID})', () => {
  it('sets the time-to-live in Meta’s wire format, and lists it back', async () => {
    const { h, api } = await harness();
    const id = await templateId(api, h.sim.config.wabaId, 'spring_sale');
    const res = await fetch(`${h.sim.url}/v24.0/${id}`, {
      method: 'POST',
      headers: auth(h.sim.config.accessToken),
      body: JSON.stringify({ message_send_ttl_seconds: 43_200 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual({ success: true });
    const one = await fetch(`${h.sim.url}/v24.0/${id}?fields=name,message_send_ttl_seconds`, { headers: auth(h.sim.config.accessToken) });
    expect(await one.json()).toEqual({ id, name: 'spring_sale', message_send_ttl_seconds: 43_200 });
    // Through Pacer's client, for a utility template: -1 asks for 30 days.
    const utility = await templateId(api, h.sim.config.wabaId, 'order_update');
    expect(await api.editTemplate(utility, { message_send_ttl_seconds: -1 })).toEqual({ kind: 'ok' });
  });

  it('refuses what Meta refuses, each with Graph’s error shape and the reason', async () => {
    const { h, api } = await harness();
    const token = h.sim.config.accessToken;
    const marketing = await templateId(api, h.sim.config.wabaId, 'spring_sale');
    const login = await templateId(api, h.sim.config.wabaId, 'login_code');
    const post = (id: string, body: string) => fetch(`${h.sim.url}/v24.0/${id}`, { method: 'POST', headers: auth(token), body });
    const cases: [string, string, RegExp][] = [
      [marketing, JSON.stringify({ message_send_ttl_seconds: 3_600 }), /from 43200 to 2592000 for MARKETING templates, got 3600/],
      [marketing, JSON.stringify({ message_send_ttl_seconds: -1 }), /for MARKETING templates, got -1/],
      [login, JSON.stringify({ message_send_ttl_seconds: 1_800 }), /from 30 to 900 or -1 for AUTHENTICATION templates/],
      [login, JSON.stringify({ message_send_ttl_seconds: '300' }), /must be an integer/],
      [marketing, JSON.stringify({ message_send_ttl_seconds: 43_200, name: 'renamed' }), /Param name is not a field a template edit takes/],
      [
        marketing,
        JSON.stringify({ message_send_ttl_seconds: 43_200, category: 'UTILITY' }),
        /approved template's category cannot be edited/,
      ],
      [marketing, JSON.stringify({}), /message_send_ttl_seconds only/],
    ];
    for (const [id, body, reason] of cases) {
      const res = await post(id, body);
      expect(res.status, body).toBe(400);
      const parsed = refusal.parse(await res.json());
      expect(parsed.error.error_user_msg).toMatch(reason);
    }
    const notJson = await post(marketing, '{ttl');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: 100 } });
    // Pacer's client reads the reason from error_user_msg.
    expect(await api.editTemplate(marketing, { message_send_ttl_seconds: 60 })).toMatchObject({
      kind: 'rejected',
      code: 100,
      details: expect.stringContaining('for MARKETING templates'),
    });
  });

  it('takes one edit of an approved template per 24 h, and resets the TTL when Meta recategorises it', async () => {
    const { h, api } = await harness();
    const id = await templateId(api, h.sim.config.wabaId, 'spring_sale');
    expect(await api.editTemplate(id, { message_send_ttl_seconds: 86_400 })).toEqual({ kind: 'ok' });
    expect(await api.editTemplate(id, { message_send_ttl_seconds: 43_200 })).toMatchObject({
      kind: 'rejected',
      details: 'An approved template can be edited once in 24 hours and 10 times in 30 days.',
    });
    await h.sim.advance(DAY + 1);
    expect(await api.editTemplate(id, { message_send_ttl_seconds: 43_200 })).toEqual({ kind: 'ok' });
    h.sim.templates.recategorise('spring_sale', 'en_US', 'UTILITY');
    const after = await api.getTemplate(id);
    expect(after).toMatchObject({ kind: 'ok' });
    expect((after as { template: Record<string, unknown> }).template['message_send_ttl_seconds']).toBeUndefined();
    // Another account's token does not reach it.
    const other = await fetch(`${h.sim.url}/v24.0/${id}`, {
      method: 'POST',
      headers: auth('someone-else'),
      body: JSON.stringify({ message_send_ttl_seconds: 43_200 }),
    });
    expect(other.status).toBe(401);
  });

  it('drops a message it cannot deliver within the TTL on the Marketing Messages API; /messages keeps it for 30 days', async () => {
    const { h, api } = await harness(1);
    const id = await templateId(api, h.sim.config.wabaId, 'spring_sale');
    expect(await api.editTemplate(id, { message_send_ttl_seconds: 43_200 })).toEqual({ kind: 'ok' });
    const [a, b] = [pickUser(h.sim, (u) => u.country !== 'US'), pickUser(h.sim, (u) => u.country !== 'US', 1)];
    const viaMm = accepted(await sendTemplate(h.client, a.phone, 'pacer:1', 'spring_sale', 'marketing_messages'));
    const viaCloud = accepted(await sendTemplate(h.client, b.phone, 'pacer:2', 'spring_sale', 'messages'));
    await h.sim.advance(2 * DAY);
    const truth = new Map(h.sim.groundTruth().messages.map((m) => [m.wamid, m]));
    // The phone came back after 20 h: past the 12 h TTL on the MM API, within the 30 days of /messages.
    expect(truth.get(viaMm.wamid)).toMatchObject({ status: 'expired', deliveredAt: null });
    expect(truth.get(viaCloud.wamid)?.deliveredAt).toBeGreaterThanOrEqual((truth.get(viaCloud.wamid)?.acceptedAt ?? 0) + 20 * HOUR);
    const statuses = h.receiver.statusesFor(viaMm.wamid).map((s) => s.status);
    expect(statuses).toEqual(['sent']);
  });
});
