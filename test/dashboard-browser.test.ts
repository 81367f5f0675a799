import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { createApiToken } from '../src/app/api-tokens.js';
import { createCampaign } from '../src/app/create-campaign.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR } from '../src/core/time.js';
import { startEngine, type Engine } from '../src/main/engine.js';
import { VirtualClock } from '../src/ports/clock.js';
import type { Store } from '../src/ports/store.js';
import { readRows } from './api-harness.js';
import { seedWorld, PAUSE_REASON, type SeededWorld } from './dashboard-seed.js';
import { ensureChromium } from './ensure-chromium.js';
import type { Place } from './store-backends.js';
import { openStore } from '../src/adapters/storage/open-store.js';

// The browser's own, for code run in the page (the project's TypeScript has no DOM library).
declare const getComputedStyle: (element: unknown) => { backgroundColor: string; borderTopLeftRadius: string };

const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'test-artifacts');
const SECRET = 'dashboard-browser-secret';
const PHONE_NUMBER_ID = '106540352242922';
const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);

/** A signed text message from the replier, posted to the engine's real webhook endpoint. */
async function postInbound(url: string, waId: string, at: number, text: string): Promise<void> {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba-1',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Ada' }, wa_id: waId }],
              messages: [
                { from: waId, id: 'wamid.inbound.1', timestamp: String(Math.floor(at / 1000)), type: 'text', text: { body: text } },
              ],
            },
          },
        ],
      },
    ],
  });
  const res = await request(`${url}/webhooks/whatsapp`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
  });
  await res.body.dump();
  expect(res.statusCode).toBe(200);
}

/** The dashboard in Chromium against a running engine (webhooks, inbox pump) on a seeded SQLite store. */
describe('Dashboard in a browser (sqlite)', () => {
  // One store for the whole file (the pages build on each other), so not a per-test place.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pacer-dashboard-'));
  const place = { options: { dataDir } } as Place;
  let store: Store;
  let engine: Engine;
  let browser: Browser;
  let page: Page;
  let world: SeededWorld;
  let token: string;

  beforeAll(async () => {
    const executablePath = ensureChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
    store = openStore({ dataDir });
    await store.migrate();
    world = await seedWorld(store, T0, PHONE_NUMBER_ID);
    token = (await createApiToken(store, { name: 'operators', scope: 'admin' }, T0)).token;
    const clock = new VirtualClock(T0 + HOUR);
    engine = await startEngine({
      store,
      clock,
      policy: DEFAULT_POLICY,
      random: () => 0.5,
      http: { host: '127.0.0.1', port: 0, appSecrets: [SECRET], verifyToken: null, mode: 'production' },
      worker: { owner: 'dashboard-browser', mps: 20 },
      api: { adminToken: null, phoneNumberId: PHONE_NUMBER_ID },
    });
    await postInbound(engine.url, world.replier.waId, T0 + 30 * 60_000, 'Is my order on its way? <b>thanks</b>');
    await engine.pump.drain();
    // Chromium refuses to start as root (containers, CI) unless its sandbox is off.
    browser = await chromium.launch({ executablePath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    // A missing element fails with Playwright's message well before the test's own timeout.
    page.setDefaultTimeout(10_000);
  }, 600_000); // long only when Chromium has to be installed first

  afterAll(async () => {
    await browser?.close();
    await engine?.stop();
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cell = (selector: string) => page.locator(selector).innerText();
  /** Each test can run alone: sign in through the form unless the session cookie is already there. */
  const signIn = async () => {
    await page.goto(`${engine.url}/login`);
    if ((await page.locator('form.login').count()) === 0) return;
    await page.fill('#token', token);
    await page.click('form.login button');
    await page.waitForSelector('h1:text("Overview")');
  };

  it('signs in through the form and shows the overview with the numbers in the database', async () => {
    await page.goto(`${engine.url}/`);
    await page.waitForSelector('form.login');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('#token', 'pacer_wrong-token');
    await page.click('form.login button');
    await page.waitForSelector('p.error');
    expect(await page.locator('p.error').innerText()).toContain('That token is not valid');
    await page.fill('#token', token);
    await page.click('form.login button');
    await page.waitForSelector('h1:text("Overview")');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'pacer_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    const funnel = await store.deliveryFunnel(null);
    for (const step of ['audience', 'eligible', 'attempted', 'accepted', 'held', 'delivered', 'read', 'replied'] as const) {
      expect(await cell(`table.funnel tr[data-step="${step}"] td.num >> nth=0`), step).toBe(funnel[step].toLocaleString('en-US'));
    }
    expect(funnel).toMatchObject({ audience: 59, replied: 1 });
    // Failures per day by code: 131026 from both campaigns, 132015 from the flash deal.
    expect(await cell('table.failures td[data-code="131026"]')).toBe('3');
    expect(await cell('table.failures td[data-code="132015"]')).toBe('8');
    expect(await page.locator('table.sender-changes tbody tr').count()).toBe((await store.senderChanges(world.senderId, 0, 100)).length);
    expect(await cell('table.sender-changes')).toContain('phone_quality FLAGGED');
    expect(await cell('table.paused')).toContain(PAUSE_REASON);
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-overview.png'), fullPage: true });
  });

  it('shows a campaign, links its codes to their pages, and pauses then resumes it', async () => {
    await signIn();
    const id = world.spring.campaignId;
    await page.goto(`${engine.url}/campaigns/${id}`);
    await page.waitForSelector('table.outcomes');
    const funnel = await store.deliveryFunnel(id);
    expect(await cell('table.funnel tr[data-step="delivered"] td.num >> nth=0')).toBe(String(funnel.delivered));
    const recovery = await store.retryRecovery(id);
    expect(await cell('table.recovery tr[data-step="first"] td')).toBe(
      String(recovery.deliveredByAttempt.find((d) => d.attempts === 1)?.count),
    );
    expect(await cell('table.recovery tr[data-step="retry1"] td')).toBe('4');
    expect(await cell('table.outcomes tr[data-group="failed:recipient_undeliverable"] td.num >> nth=0')).toBe('1');
    expect(await page.locator('table.retries tbody tr').count()).toBe(1);
    expect(await page.locator('table.held tbody tr').count()).toBe(2);
    expect(await cell('table.retries')).toContain('131049');

    await page.click('table.outcomes tr[data-group="failed:recipient_undeliverable"] a[href="/errors/131026"]');
    await page.waitForSelector('h1:has-text("131026")');
    expect(await cell('p.meaning')).not.toBe('');
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-error-131026.png'), fullPage: true });

    await page.goto(`${engine.url}/campaigns/${id}`);
    await page.click('button[value="pause"]');
    await page.waitForSelector('p.notice:text("Campaign paused.")');
    expect(await store.getCampaign(id)).toMatchObject({ status: 'paused', pauseReason: 'paused by token operators from the dashboard' });
    expect(await cell('.status')).toBe('paused');
    await page.click('button[value="resume"]');
    await page.waitForSelector('p.notice:text("Campaign resumed.")');
    expect(await store.getCampaign(id)).toMatchObject({ status: 'running', pauseReason: null });
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-campaign.png'), fullPage: true });
  });

  it('puts the failing template first and marks it', async () => {
    await signIn();
    await page.goto(`${engine.url}/templates`);
    await page.waitForSelector('table.templates');
    const first = page.locator('table.templates tbody tr >> nth=0');
    expect(await first.getAttribute('data-template')).toBe(String(world.flash.templateId));
    expect(await first.getAttribute('class')).toBe('problem');
    expect(await first.innerText()).toContain('Needs attention');
    expect(await first.locator('td.failure-rate').innerText()).toBe('50.0%');
    expect(await page.locator(`tr[data-template="${world.spring.templateId}"]`).getAttribute('class')).toBeNull();
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-templates.png'), fullPage: true });
  });

  it('shows the conversation and reachability, and queues a reply while the window is open', async () => {
    await signIn();
    const id = world.replier.contactId;
    await page.goto(`${engine.url}/contacts/${id}`);
    await page.waitForSelector('ol.timeline');
    expect(await page.locator('h1').innerText()).toBe(`Contact ${world.replier.name}`);
    expect(await cell('td.phone')).toBe(world.replier.phone);
    expect(await cell('ol.timeline li[data-type="inbound"]')).toContain('Is my order on its way? <b>thanks</b>');
    expect(await page.locator('ol.timeline li[data-type="message_event"]').count()).toBeGreaterThan(0);
    expect(await page.locator('table.reachability tbody tr').count()).toBe(4);
    expect(await cell('table.reachability tr[data-category="service"]')).toContain('would send now');
    expect(await cell('table.consent')).toContain('web form');
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-contact.png'), fullPage: true });

    await page.fill('#reply-text', 'Yes, it ships today.');
    await page.click('form.reply button');
    await page.waitForSelector('p.notice:has-text("Reply queued")');
    const rows = await readRows(place, `SELECT category, status, intent FROM outbox WHERE campaign_id IS NULL AND contact_id = ${id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ category: 'service', status: 'queued' });
    expect(JSON.parse(String(rows[0]?.['intent']))).toEqual({ phoneNumberId: PHONE_NUMBER_ID, text: 'Yes, it ships today.' });
  });
  it('lists the sender numbers from the navigation, with their campaigns and changes', async () => {
    await signIn();
    await page.click('header a[href="/senders"]');
    await page.waitForSelector('table.senders');
    const row = page.locator(`table.senders tr[data-sender="${PHONE_NUMBER_ID}"]`);
    expect(await row.getAttribute('class')).toBeNull(); // it can send: not marked
    const text = await row.innerText();
    expect(text).toContain('+1 555-0100');
    expect(text).toContain('never — run pacer sender sync');
    expect(text).toContain('Spring sale');
    expect(text).toContain('Flash deal (paused)');
    const changes = page.locator(`#sender-${PHONE_NUMBER_ID} table.sender-changes tbody tr`);
    expect(await changes.count()).toBe((await store.senderChanges(world.senderId, 0, 100)).length);
    expect(await page.locator(`#sender-${PHONE_NUMBER_ID} svg.chart`).count()).toBe(2);
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-senders.png'), fullPage: true });
  });

  it('shows a campaign’s message preview as a styled bubble', async () => {
    await store.upsertSyncedTemplates(
      [
        {
          name: 'order_note',
          language: 'en_US',
          category: 'utility',
          status: 'approved',
          quality: 'GREEN',
          pausedUntil: null,
          metaId: '7001',
          subCategory: null,
          parameterFormat: 'positional',
          components: [
            { type: 'BODY', text: 'Hello {{1}}, your order ships today.' },
            { type: 'FOOTER', text: 'Reply for help' },
            { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Thanks' }] },
          ],
        },
      ],
      T0,
    );
    const created = await createCampaign(
      store,
      {
        name: 'order notes',
        template: { name: 'order_note', language: 'en_US' },
        sender: { phoneNumberId: PHONE_NUMBER_ID },
        segment: {},
        parameters: { 'body.1': { attribute: 'name', fallback: 'there' } },
      },
      T0,
    );
    if (!created.ok) throw new Error(created.problem);
    await signIn();
    await page.goto(`${engine.url}/campaigns/${created.campaign.id}`);
    const bubble = page.locator('.wa-bubble');
    await bubble.waitFor();
    expect(await bubble.locator('.wa-body').innerText()).toMatch(/^Hello .+, your order ships today\.$/);
    expect(await bubble.locator('.wa-footer').innerText()).toBe('Reply for help');
    expect(await bubble.locator('.wa-buttons li').innerText()).toBe('Thanks');
    // The stylesheet reaches it (the page allows no inline style): a white, rounded bubble.
    const style = await bubble.evaluate((el) => {
      const s = getComputedStyle(el);
      return { background: s.backgroundColor, radius: s.borderTopLeftRadius };
    });
    expect(style.background).toBe('rgb(255, 255, 255)');
    expect(style.radius).not.toBe('0px');
    expect(await cell('p.preview-audience')).toMatch(/^\d+ matched now · \d+ would be sent · 0 would be skipped for a template value$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-campaign-preview.png'), fullPage: true });
  });
});
