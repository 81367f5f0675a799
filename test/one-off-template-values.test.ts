import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/adapters/storage/open-store.js';
import type { JsonValue, Store } from '../src/ports/store.js';
import { Dispatcher } from '../src/app/dispatcher.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { VirtualClock } from '../src/ports/clock.js';
import { body, PHONE_NUMBER_ID, startApi, T0 } from './api-harness.js';
import { ScriptedApi } from './scripted-cloud-api.js';
import { runPacer } from './cli-run.js';
import { AUTH_OTP, NAMED_MARKETING } from './meta-template-examples.js';
import { BACKENDS } from './store-backends.js';

interface Issues {
  error: string;
  message: string;
  issues: Array<{ path: string; message: string }>;
}

async function syncedTemplates(store: Store): Promise<void> {
  await store.upsertSyncedTemplates(
    [
      {
        name: 'otp_login',
        language: 'en',
        category: 'authentication',
        status: 'approved',
        quality: null,
        pausedUntil: null,
        metaId: '880000000000002',
        subCategory: null,
        parameterFormat: 'positional',
        components: AUTH_OTP.components,
      },
      {
        name: 'order_ready',
        language: 'en_US',
        category: 'utility',
        status: 'approved',
        quality: null,
        pausedUntil: null,
        metaId: '880000000000010',
        subCategory: null,
        parameterFormat: 'named',
        components: [{ type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} is ready.' }] satisfies JsonValue[],
      },
      {
        name: NAMED_MARKETING['name'] as string,
        language: 'en_GB',
        category: 'marketing',
        status: 'approved',
        quality: null,
        pausedUntil: null,
        metaId: '880000000000001',
        subCategory: null,
        parameterFormat: 'named',
        components: NAMED_MARKETING.components,
      },
    ],
    T0 - 1000,
  );
}

describe.each(BACKENDS)('REST API: one-off template values ($name)', (backend) => {
  it('sends an authentication code in the body and the one-time-password button, frozen into the row', async () => {
    const rig = await startApi(backend);
    await syncedTemplates(rig.store);
    const r = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123456',
        category: 'authentication',
        template: { name: 'otp_login', language: 'en', parameters: { 'body.1': '482913' } },
        idempotencyKey: 'otp-1',
      },
    });
    expect(r.status).toBe(202);
    const row = (await rig.store.getOutbox(1)) ?? undefined;
    expect(row?.intent).toMatchObject({ template: { name: 'otp_login', values: { 'body.1': '482913' } } });
    // What goes to Meta: the code in the body and as the copy-code button's URL value.
    const api = new ScriptedApi();
    await new Dispatcher(
      { store: rig.store, api, policy: DEFAULT_POLICY, clock: new VirtualClock(T0), random: () => 0.5 },
      { owner: 'otp-test', phoneNumberId: PHONE_NUMBER_ID, mps: 80, leaseMs: 60_000, batchSize: 10 },
    ).tick();
    expect(api.requests[0]?.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
  });

  it('fills named values from the contact’s attributes, or refuses with every missing value and stores nothing', async () => {
    const rig = await startApi(backend);
    await syncedTemplates(rig.store);
    await rig.store.upsertContacts([{ phoneE164: '+447911123457', waId: '447911123457', attributes: { first_name: 'Ada' } }], T0);
    const ok = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123457',
        category: 'utility',
        template: { name: 'order_ready', language: 'en_US', parameters: { first_name: { attribute: 'first_name' }, order_id: 'A-1001' } },
      },
    });
    expect(ok.status).toBe(202);
    const [row] = await rig.store.claimDue({ owner: 't', now: T0, leaseMs: 60_000, limit: 10 });
    expect(row?.intent).toMatchObject({ template: { values: { 'body.first_name': 'Ada', 'body.order_id': 'A-1001' } } });

    const missing = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123999',
        category: 'utility',
        template: { name: 'order_ready', language: 'en_US', parameters: { first_name: 'Bo' } },
      },
    });
    expect(missing.status).toBe(400);
    expect(body<Issues>(missing)).toMatchObject({
      error: 'invalid_parameters',
      issues: [
        { path: 'template.parameters.body.order_id', message: 'body {{order_id}} has no value: map it to an attribute or a constant' },
      ],
    });
    // Refused before anything was written: no contact for the new number, no row.
    expect(await rig.store.findContact({ phoneE164: '+447911123999' })).toBeNull();

    const noAttr = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123999',
        category: 'utility',
        template: { name: 'order_ready', language: 'en_US', parameters: { first_name: { attribute: 'first_name' }, order_id: 'A-1' } },
      },
    });
    expect(body<Issues>(noAttr).issues).toEqual([
      { path: 'template.parameters.body.first_name', message: 'body {{first_name}}: first_name is missing' },
    ]);
  });

  it('refuses values Meta would refuse, and Meta-shaped components it would silently drop', async () => {
    const rig = await startApi(backend);
    await syncedTemplates(rig.store);
    const tooLong = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123458',
        category: 'authentication',
        template: { name: 'otp_login', language: 'en', parameters: { 'body.1': '1234567890123456' } },
      },
    });
    expect(body<Issues>(tooLong).issues[0]?.message).toBe('body {{1}}: the value is 16 characters; Meta allows 15');
    const newline = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123458',
        category: 'utility',
        template: { name: 'order_ready', language: 'en_US', parameters: { first_name: 'Ada\nLovelace', order_id: '1' } },
      },
    });
    expect(body<Issues>(newline).issues[0]?.message).toContain('line break');
    const components = await rig.call('POST', '/api/v1/messages', {
      body: { to: '+447911123458', category: 'utility', template: { name: 'order_ready', language: 'en_US', components: [] } },
    });
    expect(components.status).toBe(400);
    expect(components.text).toContain('components');
    const mediaAsText = await rig.call('POST', '/api/v1/messages', {
      body: {
        to: '+447911123458',
        category: 'marketing',
        template: {
          name: 'spring_promo_named',
          language: 'en_GB',
          parameters: { header: 'photo', first_name: 'a', discount: 'b', end_date: 'c', 'button.0': 'd' },
        },
      },
    });
    expect(body<Issues>(mediaAsText).issues).toEqual([
      { path: 'template.parameters.header', message: 'header image takes a link, a media id or an attribute holding a link, not text' },
    ]);
  });
});

describe('pacer send with template values', () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-send-values-'));
    process.env.PACER_DATA_DIR = dir;
    process.env.WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
    const store = openStore({ dataDir: dir });
    await store.migrate();
    await syncedTemplates(store);
    await store.close();
  });
  afterEach(() => {
    delete process.env.PACER_DATA_DIR;
    delete process.env.WHATSAPP_PHONE_NUMBER_ID;
    rmSync(dir, { recursive: true, force: true });
  });

  it('queues an OTP given with --param, and refuses a bad --param with what is wrong', async () => {
    const ok = await runPacer(
      'send',
      '--to',
      '+447911123456',
      '--category',
      'authentication',
      '--template',
      'otp_login',
      '--language',
      'en',
      '--param',
      'body.1=text:482913',
    );
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.out).toContain('Queued authentication message');
    const missing = await runPacer(
      'send',
      '--to',
      '+447911123456',
      '--category',
      'authentication',
      '--template',
      'otp_login',
      '--language',
      'en',
    );
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('body.1: body {{1}} has no value');
    const badForm = await runPacer(
      'send',
      '--to',
      '+447911123456',
      '--category',
      'authentication',
      '--template',
      'otp_login',
      '--language',
      'en',
      '--param',
      'body.1=482913',
    );
    expect(badForm.code).toBe(2);
    expect(badForm.err).toContain('say where the value comes from: attribute:NAME, text:VALUE, link:URL or media:ID');
    const loneFallback = await runPacer('send', '--to', '+447911123456', '--template', 'order_ready', '--fallback', 'first_name=there');
    expect(loneFallback.err).toContain('a fallback goes with --param first_name=attribute:NAME');
  });
});
