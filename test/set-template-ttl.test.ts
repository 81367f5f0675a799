import { afterEach, describe, expect, it } from 'vitest';
import { createTemplateApiClient } from '../src/adapters/cloud-api/template-api-client.js';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { setTemplateTtl } from '../src/app/set-template-ttl.js';
import { syncTemplates } from '../src/app/sync-templates.js';
import type { TemplateApi } from '../src/ports/cloud-api.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

let sim: Simulator | null = null;
let api: TemplateApi | null = null;
afterEach(async () => {
  await api?.close();
  await sim?.stop();
  sim = null;
  api = null;
});

async function account(): Promise<{ sim: Simulator; api: TemplateApi }> {
  sim = await startSimulator();
  api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: sim.config.accessToken });
  return { sim, api };
}

describe.each(BACKENDS)('setTemplateTtl ($name)', (backend) => {
  it('sets it at Meta and stores the template as Meta reads it back', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    const r = await setTemplateTtl({ store, api, now: () => T0 + 1 }, { name: 'order_update', language: 'en_US', seconds: 3_600 });
    expect(r).toMatchObject({ ok: true, previousSeconds: null, readBack: true, template: { sendTtlSeconds: 3_600, syncedAt: T0 + 1 } });
    expect(await store.getTemplate('order_update', 'en_US')).toMatchObject({ sendTtlSeconds: 3_600 });
  });

  it('keeps what Meta took when the template cannot be read back, and stores nothing when Meta refuses', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    const before = await store.getTemplate('spring_sale', 'en_US');
    // The edit goes through; the read after it finds Meta unavailable.
    const flaky: TemplateApi = {
      ...api,
      getTemplate: async () => ({ kind: 'transport_failure', reason: 'network_error', transient: true, detail: 'reset', httpStatus: null }),
    };
    const r = await setTemplateTtl({ store, api: flaky, now: () => T0 + 1 }, { name: 'spring_sale', language: 'en_US', seconds: 86_400 });
    expect(r).toMatchObject({ ok: true, readBack: false, template: { sendTtlSeconds: 86_400, status: 'approved', category: 'marketing' } });
    // The rest of what the sync stored stays.
    expect(await store.getTemplate('spring_sale', 'en_US')).toMatchObject({
      metaId: before?.metaId,
      components: before?.components,
      parameterFormat: before?.parameterFormat,
      sendTtlSeconds: 86_400,
    });

    sim.faults.inject({ kind: 'error_code', code: 80008 }, { count: 1 });
    const refused = await setTemplateTtl({ store, api, now: () => T0 + 2 }, { name: 'login_code', language: 'en_US', seconds: 120 });
    expect(refused).toEqual({
      ok: false,
      problem: 'refused',
      reason: expect.stringMatching(/^editing template login_code \(en_US\): Meta refused it: \(#80008\)/),
    });
    expect((await store.getTemplate('login_code', 'en_US'))?.sendTtlSeconds).toBe(600);
    const range = await setTemplateTtl({ store, api, now: () => T0 + 3 }, { name: 'login_code', language: 'en_US', seconds: 20 });
    expect(range).toMatchObject({ ok: false, problem: 'out_of_range' });
  });
});
