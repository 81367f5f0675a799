import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTemplateApiClient } from '../src/adapters/cloud-api/template-api-client.js';
import { startSimulator, type Simulator, type SimTemplateConfig } from '../src/adapters/simulator/index.js';
import { syncTemplates } from '../src/app/sync-templates.js';
import type { TemplateApi } from '../src/ports/cloud-api.js';
import type { Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

/** Five templates, one of each kind Meta lists; the simulator serves them two to a page below. */
const FIVE: SimTemplateConfig[] = [
  { name: 'spring_sale', language: 'en_US', category: 'MARKETING', relevance: 0.5, messageSendTtlSeconds: 86_400 },
  { name: 'order_update', language: 'en_US', category: 'UTILITY', relevance: 0.9 },
  { name: 'login_code', language: 'en_US', category: 'AUTHENTICATION', relevance: 1, messageSendTtlSeconds: 300 },
  { name: 'order_update', language: 'pt_BR', category: 'UTILITY', relevance: 0.9 },
  { name: 'loyalty_note', language: 'en_GB', category: 'UTILITY', relevance: 0.6 },
];

/** `GET /{WABA_ID}/message_templates` as Meta documents it, strictly: nothing more, nothing less. */
const strictPage = z
  .object({
    data: z.array(
      z
        .object({
          id: z.string().regex(/^\d+$/),
          name: z.string().regex(/^[a-z0-9_]+$/),
          language: z.string(),
          status: z.enum(['APPROVED', 'PAUSED', 'DISABLED', 'PENDING', 'REJECTED']),
          category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']),
          parameter_format: z.enum(['POSITIONAL', 'NAMED']),
          sub_category: z.string().optional(),
          message_send_ttl_seconds: z.number().int().optional(),
          quality_score: z.object({ score: z.enum(['GREEN', 'YELLOW', 'RED', 'UNKNOWN']), date: z.number().int() }).strict(),
          components: z.array(z.object({ type: z.string() }).passthrough()).min(1),
        })
        .strict(),
    ),
    paging: z
      .object({
        cursors: z.object({ before: z.string(), after: z.string() }).strict(),
        next: z.url().optional(),
      })
      .strict(),
  })
  .strict();

let sim: Simulator | null = null;
let api: TemplateApi | null = null;
afterEach(async () => {
  await api?.close();
  await sim?.stop();
  sim = null;
  api = null;
});

async function account(templates: SimTemplateConfig[] = FIVE, pageSize = 2): Promise<{ sim: Simulator; api: TemplateApi }> {
  sim = await startSimulator({ templates });
  api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: sim.config.accessToken, pageSize });
  return { sim, api };
}

const byKey = async (store: Store) => new Map((await store.listTemplates()).map((t) => [`${t.name}/${t.language}`, t]));

describe('the simulator’s template list', () => {
  it('pages with limit and after in Meta’s exact shape, and serves one template by its id', async () => {
    const { sim } = await account();
    const pages: unknown[] = [];
    let url: string | undefined = `${sim.url}/v24.0/${sim.config.wabaId}/message_templates?limit=2`;
    while (url !== undefined) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${sim.config.accessToken}` } });
      expect(res.status).toBe(200);
      const page = strictPage.parse(await res.json());
      pages.push(...page.data);
      // `next` names Meta's host; the same query goes to the simulator.
      url =
        page.paging.next === undefined ? undefined : `${sim.url}${new URL(page.paging.next).pathname}${new URL(page.paging.next).search}`;
    }
    expect(pages.map((t) => (t as { name: string }).name)).toEqual(FIVE.map((t) => t.name));
    const first = pages[0] as { id: string };
    const one = await fetch(`${sim.url}/v24.0/${first.id}?fields=name,category`, {
      headers: { authorization: `Bearer ${sim.config.accessToken}` },
    });
    expect(await one.json()).toEqual({ id: first.id, name: 'spring_sale', category: 'MARKETING' });
    const bad = await fetch(`${sim.url}/v24.0/${sim.config.wabaId}/message_templates?after=nonsense`, {
      headers: { authorization: `Bearer ${sim.config.accessToken}` },
    });
    expect(bad.status).toBe(400);
  });

  it('gives its default templates placeholders, a media header and buttons, keeping their names and categories', async () => {
    sim = await startSimulator();
    api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: sim.config.accessToken });
    const answer = await api.listTemplates(sim.config.wabaId);
    if (answer.kind !== 'ok') throw new Error(JSON.stringify(answer));
    const page = strictPage.parse({ data: answer.page.data, paging: { cursors: { before: 'x', after: 'y' } } });
    expect(page.data.map((t) => [t.name, t.category])).toEqual([
      ['spring_sale', 'MARKETING'],
      ['order_update', 'UTILITY'],
      ['login_code', 'AUTHENTICATION'],
    ]);
    expect(JSON.stringify(page.data[0]!.components)).toContain('"format":"IMAGE"');
    expect(JSON.stringify(page.data[0]!.components)).toContain('{{1}}');
    expect(page.data[1]!.parameter_format).toBe('NAMED');
    expect(page.data.every((t) => t.components.some((c) => c.type === 'BUTTONS'))).toBe(true);
  });
});

describe.each(BACKENDS)('syncTemplates from the business account ($name)', (backend) => {
  it('pages through every page (limit 2, five templates) and stores Meta’s category, id and components', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    const result = await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    expect(result).toEqual({
      ok: true,
      report: { pages: 3, added: 5, updated: 0, unchanged: 0, removed: 0, offlineOnly: 0, refused: [] },
    });
    const stored = await byKey(store);
    expect([...stored.keys()].sort()).toEqual(FIVE.map((t) => `${t.name}/${t.language}`).sort());
    expect(stored.get('login_code/en_US')).toMatchObject({
      category: 'authentication',
      status: 'approved',
      quality: 'GREEN',
      syncedAt: T0,
    });
    expect(stored.get('loyalty_note/en_GB')).toMatchObject({ category: 'utility', parameterFormat: 'positional', sendTtlSeconds: null });
    // Meta's message_send_ttl_seconds, where it lists one.
    expect(stored.get('login_code/en_US')?.sendTtlSeconds).toBe(300);
    expect(stored.get('spring_sale/en_US')?.sendTtlSeconds).toBe(86_400);
    expect(stored.get('spring_sale/en_US')?.metaId).toMatch(/^\d+$/);
    expect(stored.get('spring_sale/en_US')?.components).toEqual([{ type: 'BODY', text: 'A message from the spring sale template.' }]);
    // Nothing changed at Meta: the second sync changes nothing either.
    expect(await syncTemplates({ store, api, now: () => T0 + 1 }, sim.config.wabaId)).toMatchObject({
      ok: true,
      report: { added: 0, updated: 0, unchanged: 5 },
    });
  });

  it('follows the time-to-live Meta lists: an edit at Meta is an update, a recategorisation clears it', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    const id = (await store.getTemplate('spring_sale', 'en_US'))?.metaId ?? '';
    expect(await api.editTemplate(id, { message_send_ttl_seconds: 43_200 })).toEqual({ kind: 'ok' });
    expect(await syncTemplates({ store, api, now: () => T0 + 1 }, sim.config.wabaId)).toMatchObject({
      ok: true,
      report: { updated: 1, unchanged: 4 },
    });
    expect((await store.getTemplate('spring_sale', 'en_US'))?.sendTtlSeconds).toBe(43_200);
    sim.templates.recategorise('login_code', 'en_US', 'UTILITY');
    await syncTemplates({ store, api, now: () => T0 + 2 }, sim.config.wabaId);
    expect(await store.getTemplate('login_code', 'en_US')).toMatchObject({ category: 'utility', sendTtlSeconds: null });
  });

  it('takes the category from Meta over one registered offline, and follows Meta when it recategorises', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await store.upsertTemplates(
      [{ name: 'spring_sale', language: 'en_US', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const first = await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    expect(first).toMatchObject({ ok: true, report: { added: 4, updated: 1 } });
    expect((await store.getTemplate('spring_sale', 'en_US'))?.category).toBe('marketing');

    sim.templates.recategorise('loyalty_note', 'en_GB', 'MARKETING');
    const second = await syncTemplates({ store, api, now: () => T0 + 1 }, sim.config.wabaId);
    expect(second).toMatchObject({ ok: true, report: { updated: 1, unchanged: 4 } });
    expect((await store.getTemplate('loyalty_note', 'en_GB'))?.category).toBe('marketing');
  });

  it('marks a template Meta no longer lists as deleted, once; one only registered offline is left alone', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await store.upsertTemplates(
      [{ name: 'hand_made', language: 'en', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    sim.templates.remove('order_update', 'pt_BR');
    const after = await syncTemplates({ store, api, now: () => T0 + 1 }, sim.config.wabaId);
    expect(after).toMatchObject({ ok: true, report: { pages: 2, removed: 1, unchanged: 4, offlineOnly: 1 } });
    expect(await store.getTemplate('order_update', 'pt_BR')).toMatchObject({ status: 'deleted', category: 'utility' });
    expect(await store.getTemplate('hand_made', 'en')).toMatchObject({ status: 'approved' });
    expect(await syncTemplates({ store, api, now: () => T0 + 2 }, sim.config.wabaId)).toMatchObject({ report: { removed: 0 } });
  });

  it('reports a malformed template with its reason and still syncs the others', async () => {
    const store = await backend.open();
    const broken: SimTemplateConfig = {
      name: 'broken_one',
      language: 'en_US',
      category: 'MARKETING',
      relevance: 0.5,
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hi' },
        { type: 'BODY', text: 7 },
      ],
    };
    const { sim, api } = await account([...FIVE.slice(0, 2), broken, ...FIVE.slice(2)]);
    const result = await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    expect(result).toMatchObject({
      ok: true,
      report: {
        added: 5,
        refused: [
          {
            name: 'broken_one',
            language: 'en_US',
            id: expect.stringMatching(/^\d+$/),
            reason: 'components[1].text must be a string, got 7',
          },
        ],
      },
    });
    expect(await store.getTemplate('broken_one', 'en_US')).toBeNull();
    expect((await store.listTemplates()).length).toBe(5);
  });

  it('changes nothing when a page cannot be read, and says which page and why', async () => {
    const store = await backend.open();
    const { sim, api } = await account();
    await syncTemplates({ store, api, now: () => T0 }, sim.config.wabaId);
    sim.templates.remove('spring_sale', 'en_US');
    sim.templates.recategorise('loyalty_note', 'en_GB', 'MARKETING');
    // Meta's business-use-case rate limit on the list: the changes above are not applied.
    sim.faults.inject({ kind: 'error_code', code: 80008 }, { count: 1 });
    const failed = await syncTemplates({ store, api, now: () => T0 + 1 }, sim.config.wabaId);
    expect(failed).toEqual({ ok: false, reason: expect.stringMatching(/^listing templates \(page 1\): Meta refused it: \(#80008\)/) });
    expect(await store.getTemplate('spring_sale', 'en_US')).toMatchObject({ status: 'approved' });
    expect((await store.getTemplate('loyalty_note', 'en_GB'))?.category).toBe('utility');
    const wrongAccount = await syncTemplates({ store, api, now: () => T0 + 2 }, '999');
    expect(wrongAccount).toMatchObject({ ok: false, reason: expect.stringContaining('(#100)') });
  });
});
