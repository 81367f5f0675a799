import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { runCli } from '../src/main/cli.js';
import { eventually } from './await-state.js';
import { freePort } from './crash-rig.js';
import { killHard, startPacer, stopGracefully, type PacerProcess } from './scale-rig.js';
import { plainTemplates } from './plain-templates.js';

// A real `pacer serve` at the most verbose log level, taken through a whole flow (API sends, refused
// tokens and signatures, a bad number, the webhook handshake, Meta's signed webhooks, an inbound
// message): its whole output must hold no full phone number, token or secret.

const APP_SECRET = 'app-secret-4c1d9e07b2';
const ADMIN_TOKEN = 'admin-token-7f3a5b9d1e2c';
const VERIFY_TOKEN = 'verify-token-6e0b8a2f';
const WRONG_TOKEN = 'pacer_wrong-token-0b5e7c3d';

let sim: Simulator | null = null;
let server: PacerProcess | null = null;
let dir = '';

afterEach(async () => {
  await killHard(server);
  server = null;
  await sim?.stop();
  sim = null;
  rmSync(dir, { recursive: true, force: true });
  delete process.env['PACER_DATA_DIR'];
});

async function call(
  origin: string,
  method: 'GET' | 'POST',
  url: string,
  o: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token !== undefined) headers['authorization'] = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await request(`${origin}${url}`, { method, headers, body: o.body });
  return { status: res.statusCode, text: await res.body.text() };
}

describe('pacer serve logs', () => {
  it('never print a full phone number, a business-scoped user id, a token or a secret, whatever happens', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-logs-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const fast = { min: 1, max: 5 };
    const s = await startSimulator({
      seed: 8,
      templates: plainTemplates(),
      appSecret: APP_SECRET,
      callbackUrl: `${origin}/webhooks/whatsapp`,
      population: { size: 5, notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0, countries: { GB: 1 } },
      reactions: { sentDelayMs: fast, deliveredDelayMs: fast, readDelayMs: fast, replyDelayMs: fast },
      webhooks: { latencyMs: fast, outOfOrderRate: 0, duplicateRate: 0 },
    });
    sim = s;
    const phones = s.users.map((u) => u.phone);
    process.env['PACER_DATA_DIR'] = dir;
    const csv = path.join(dir, 'contacts.csv');
    writeFileSync(csv, `phone,name,consent_utility,consent_marketing\n${phones.map((p, i) => `+${p},User ${i},yes,yes`).join('\n')}\n`);
    expect(
      await runCli(
        ['import', 'contacts', csv],
        () => undefined,
        () => undefined,
      ),
    ).toBe(0);
    server = await startPacer(
      ['serve'],
      {
        ...process.env,
        PACER_DATA_DIR: dir,
        PACER_PORT: String(port),
        PACER_LOG_LEVEL: 'trace',
        PACER_ADMIN_TOKEN: ADMIN_TOKEN,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_ACCESS_TOKEN: s.config.accessToken,
        WHATSAPP_PHONE_NUMBER_ID: s.config.phoneNumberId,
        WHATSAPP_API_BASE_URL: s.url,
      },
      'Dispatching from',
      Date.now() + 30_000,
    );

    // Sends through the API, and what it refuses.
    const [first, second] = phones;
    const send = (to: string, key: string) =>
      call(origin, 'POST', '/api/v1/messages', {
        token: ADMIN_TOKEN,
        body: JSON.stringify({ to, template: { name: 'order_update', language: 'en_US' }, category: 'utility', idempotencyKey: key }),
      });
    const sent = await send(`+${first}`, 'order-1');
    expect(sent.status, sent.text).toBeLessThan(300);
    expect((await send(`+${second}`, 'order-2')).status).toBeLessThan(300);
    const badNumber = await send('+44770090012345678', 'order-3');
    expect(badNumber.status).toBe(400);
    expect(badNumber.text).not.toContain('44770090012345678');
    expect((await call(origin, 'GET', '/api/v1/contacts', { token: WRONG_TOKEN })).status).toBe(401);
    expect((await call(origin, 'GET', '/api/v1/contacts')).status).toBe(401);
    expect((await call(origin, 'GET', '/api/v1/contacts', { token: ADMIN_TOKEN })).status).toBe(200);
    // Webhooks: the handshake (its token rides in the query string), a forged and a signed post.
    expect(
      (await call(origin, 'GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=42`)).status,
    ).toBe(200);
    const forged = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '1', phone_number_id: '1' },
                messages: [{ from: first, id: 'wamid.x', timestamp: '1', type: 'text', text: { body: 'hi' } }],
              },
            },
          ],
        },
      ],
    });
    expect(
      (
        await call(origin, 'POST', '/webhooks/whatsapp', {
          body: forged,
          headers: { 'x-hub-signature-256': signBody(forged, 'not-the-secret') },
        })
      ).status,
    ).toBe(401);
    const notJson = '{"object": "whatsapp_business_account", "entry": [ broken';
    expect(
      (
        await call(origin, 'POST', '/webhooks/whatsapp', {
          body: notJson,
          headers: { 'x-hub-signature-256': signBody(notJson, APP_SECRET) },
        })
      ).status,
    ).toBe(200);
    // Meta's side: both messages delivered and read, then a user writes in.
    await eventually(() => s.groundTruth().messages.filter((m) => m.readAt !== null).length === 2, Date.now() + 20_000);
    s.act.writes(first ?? '', 'Hello, my number is in this message');
    await eventually(() => s.groundTruth().webhooks.accepted >= 3, Date.now() + 10_000);
    expect(await stopGracefully(server)).toBe(0);

    const log = server.output();
    server = null;
    // The scan means something only if the log has lines about this flow.
    expect(log).toContain('/api/v1/messages');
    expect(log).toContain('/webhooks/whatsapp');
    expect(log.split('\n').length).toBeGreaterThan(20);
    for (const phone of [...phones, '44770090012345678']) expect(log, `phone ${phone.slice(0, 4)}…`).not.toContain(phone);
    for (const secret of [APP_SECRET, ADMIN_TOKEN, VERIFY_TOKEN, WRONG_TOKEN, s.config.accessToken]) expect(log).not.toContain(secret);
    // Business-scoped user ids ride in every webhook; they identify a person as a number does.
    for (const u of s.users) expect(log, `user id ${u.userId.slice(0, 5)}…`).not.toContain(u.userId);
  }, 60_000);
});
