import { describe, expect, it } from 'vitest';
import { HOUR } from '../src/core/time.js';
import { ADMIN_TOKEN, csrfOf, startDashboard, T0 } from './dashboard-harness.js';
import { BACKENDS } from './store-backends.js';
import { createCouponCampaign, seedPreview } from './preview-seed.js';
import { seedCampaign } from './store-seed.js';

const sqlite = BACKENDS.filter((b) => b.name === 'sqlite');

/** `n` recipients held for a window (130472), the rest of the campaign untouched. */
async function seedHeld(store: Awaited<ReturnType<typeof startDashboard>>['store'], n: number) {
  const seed = await seedCampaign(store, T0, n);
  await store.insertOutbox(
    seed.rows(() => T0),
    T0,
  );
  for (const row of await store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: n })) {
    await store.reschedule(row.id, 'w', { status: 'held', until: null, capAttempt: false, errorCode: 130472 }, T0);
  }
  return seed;
}

describe.each(sqlite)('Dashboard over HTTP ($name)', (backend) => {
  it('sends a browser without a session to /login, and keeps the page it wanted', async () => {
    const rig = await startDashboard(backend);
    for (const path of ['/', '/templates', '/campaigns/1', '/contacts/1', '/errors/131049']) {
      const page = await rig.get(path);
      expect(page.status, path).toBe(303);
      expect(page.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    const login = await rig.get('/login?next=%2Ftemplates');
    expect(login.status).toBe(200);
    expect(login.text).toContain('name="next" value="/templates"');
    // A bearer token (scripts) is accepted like on the API.
    expect((await rig.get('/', { bearer: rig.token })).status).toBe(200);
    expect((await rig.get('/', { bearer: 'pacer_not-a-token' })).status).toBe(303);
  });

  it('shows an error for a bad token and signs in with a good one (HttpOnly, SameSite=Strict cookie)', async () => {
    const rig = await startDashboard(backend);
    const bad = await rig.post('/login', { token: 'pacer_wrong', next: '/' });
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('That token is not valid');
    expect(bad.setCookie).toBeUndefined();
    const empty = await rig.post('/login', { token: '  ', next: '/' });
    expect(empty.text).toContain('Enter a token.');
    expect(rig.logText()).not.toContain('pacer_wrong');

    const good = await rig.post('/login', { token: rig.token, next: '/templates' });
    expect(good.status).toBe(303);
    expect(good.location).toBe('/templates');
    expect(good.setCookie).toMatch(/^pacer_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(good.setCookie).not.toContain(rig.token);
    const cookie = good.setCookie?.split(';')[0] ?? '';
    const overview = await rig.get('/', { cookie });
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('<h1>Overview</h1>');
    expect(overview.text).toContain('token dashboard-tests');
    expect(rig.logText()).not.toContain(rig.token);

    // The admin token works too; a next that leaves the server is refused.
    const admin = await rig.post('/login', { token: ADMIN_TOKEN, next: '//evil.example/x' });
    expect(admin.status).toBe(303);
    expect(admin.location).toBe('/');
  });

  it('slows down token guessing at the sign-in form', async () => {
    const rig = await startDashboard(backend);
    for (let i = 0; i < 10; i++) expect((await rig.post('/login', { token: `pacer_guess-${i}` })).status).toBe(401);
    const limited = await rig.post('/login', { token: rig.token });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many sign-in attempts from this address; try again in 6 s.');
    rig.clock.t += 6_000;
    expect((await rig.post('/login', { token: rig.token })).status).toBe(303);
  });

  it('ends a session when its token is revoked or on sign-out', async () => {
    const rig = await startDashboard(backend);
    const cookie = await rig.login();
    const page = await rig.get('/', { cookie });
    expect(page.status).toBe(200);
    const out = await rig.post('/logout', { _csrf: csrfOf(page) }, { cookie });
    expect(out.status).toBe(303);
    expect(out.setCookie).toContain('Max-Age=0');
    expect((await rig.get('/', { cookie })).status).toBe(303);

    const again = await rig.login();
    const [stored] = await rig.store.listApiTokens();
    await rig.store.revokeApiToken(stored?.id ?? -1, T0);
    expect((await rig.get('/', { cookie: again })).status).toBe(303);
  });

  it('refuses actions without the CSRF token, from another origin, or with a bearer token only', async () => {
    const rig = await startDashboard(backend);
    const seed = await seedHeld(rig.store, 2);
    const cookie = await rig.login();
    const page = await rig.get(`/campaigns/${seed.campaignId}`, { cookie });
    expect(page.text).toContain('Messaging limit: not known yet (Meta names it in a webhook); up to 80 messages/s.');
    const csrf = csrfOf(page);
    const pause = `/campaigns/${seed.campaignId}/pause`;

    const noToken = await rig.post(pause, {}, { cookie });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('security token');
    expect((await rig.post(pause, { _csrf: `${csrf}x` }, { cookie })).status).toBe(403);
    const crossSite = await rig.post(pause, { _csrf: csrf }, { cookie, origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain('not sent from this server');
    expect((await rig.post(pause, { _csrf: csrf }, { cookie, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    const bearer = await rig.post(pause, { _csrf: csrf }, { bearer: rig.token });
    expect(bearer.status).toBe(403);
    expect(bearer.text).toContain('signed-in browser session');
    expect((await rig.store.getCampaign(seed.campaignId))?.status).toBe('running');
    // Sign-in from another site is refused too.
    expect((await rig.post('/login', { token: rig.token }, { origin: 'http://evil.example' })).status).toBe(403);

    const ok = await rig.post(pause, { _csrf: csrf }, { cookie });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`/campaigns/${seed.campaignId}?done=pause`);
    expect(await rig.store.getCampaign(seed.campaignId)).toMatchObject({
      status: 'paused',
      pauseReason: 'paused by token dashboard-tests from the dashboard',
    });
    // Pausing again is not allowed by the campaign's state: the page says why.
    const twice = await rig.post(pause, { _csrf: csrf }, { cookie });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('is paused; it cannot be paused');
    // Cancelling needs the confirmation box.
    expect((await rig.post(`/campaigns/${seed.campaignId}/cancel`, { _csrf: csrf }, { cookie })).status).toBe(400);
    expect((await rig.store.getCampaign(seed.campaignId))?.status).toBe('paused');
    expect((await rig.post(`/campaigns/${seed.campaignId}/cancel`, { _csrf: csrf, confirm: 'yes' }, { cookie })).status).toBe(303);
    expect(await rig.store.campaignCounters(seed.campaignId)).toMatchObject({ cancelled: 2, held: 0 });
  });

  it('answers unknown campaigns, contacts, codes and actions with a 404 page', async () => {
    const rig = await startDashboard(backend);
    const cookie = await rig.login();
    const cases: Array<[string, string]> = [
      ['/campaigns/999', 'There is no campaign 999.'],
      ['/campaigns/abc', 'There is no campaign abc.'],
      ['/contacts/999', 'There is no contact 999.'],
      ['/errors/999999', 'Error code 999999 is not in the catalogue.'],
      ['/errors/200-298', 'Error code 200-298 is not in the catalogue.'],
    ];
    for (const [path, message] of cases) {
      const page = await rig.get(path, { cookie });
      expect(page.status, path).toBe(404);
      expect(page.text).toContain(message);
      expect(page.text).toContain('<h1>Not found</h1>');
    }
    const csrf = csrfOf(await rig.get('/', { cookie }));
    expect((await rig.post('/campaigns/999/pause', { _csrf: csrf }, { cookie })).status).toBe(404);
    expect((await rig.post('/campaigns/1/explode', { _csrf: csrf }, { cookie })).status).toBe(404);
    expect((await rig.post('/contacts/find', { _csrf: csrf, q: '+44 7700 900999' }, { cookie })).status).toBe(404);
  });

  it('shows error-code pages from the catalogue, by code, by range and by a code inside a range', async () => {
    const rig = await startDashboard(backend);
    const cookie = await rig.login();
    const cap = await rig.get('/errors/131049', { cookie });
    expect(cap.status).toBe(200);
    expect(cap.text).toContain('131049:');
    expect(cap.text).toContain('per_user_marketing_cap');
    expect((await rig.get('/errors/200-299', { cookie })).status).toBe(200);
    expect((await rig.get('/errors/250', { cookie })).text).toContain('<h1>200-299:');
    const index = await rig.get('/errors', { cookie });
    expect(index.text).toContain('href="/errors/131049"');
  });

  it('pages held recipients 50 at a time by id, and escapes contact names', async () => {
    const rig = await startDashboard(backend);
    const seed = await seedHeld(rig.store, 55);
    await rig.store.upsertContacts([{ waId: '15550000000', name: '<img src=x onerror=alert(1)>' }], T0);
    const cookie = await rig.login();
    const first = await rig.get(`/campaigns/${seed.campaignId}`, { cookie });
    const ids = (text: string) => [...text.matchAll(/<tr data-outbox="(\d+)">/g)].map((m) => Number(m[1]));
    const firstIds = ids(first.text);
    expect(firstIds).toHaveLength(50);
    expect(first.text).not.toContain('<img src=x');
    expect(first.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const next = /<a class="next-page" data-list="held" href="([^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
    expect(next).toBe(`/campaigns/${seed.campaignId}?retriesAfter=0&heldAfter=${firstIds[49] ?? -1}`);
    const second = await rig.get(next ?? '', { cookie });
    const secondIds = ids(second.text);
    expect(secondIds).toHaveLength(5);
    expect(new Set([...firstIds, ...secondIds]).size).toBe(55);
    expect(second.text).not.toContain('class="next-page" data-list="held"');
    // The funnel counts every held row, not just the page.
    expect(first.text).toMatch(/<tr data-step="held"><th>Held for a window<\/th><td class="num">55<\/td>/);
  });

  it('finds a contact from the header form without putting the number in a URL', async () => {
    const rig = await startDashboard(backend);
    const { ids } = await rig.store.upsertContacts([{ phoneE164: '+447700900123', waId: '447700900123', name: 'Ada' }], T0);
    const cookie = await rig.login();
    const csrf = csrfOf(await rig.get('/', { cookie }));
    const found = await rig.post('/contacts/find', { _csrf: csrf, q: '+44 7700 900123' }, { cookie });
    expect(found.status).toBe(303);
    expect(found.location).toBe(`/contacts/${ids[0] ?? -1}`);
    const page = await rig.get(found.location ?? '', { cookie });
    expect(page.text).toContain('+447700900123');
    expect(rig.logText()).not.toContain('7700900123');
  });
});

describe.each(BACKENDS)('Dashboard campaign page: why recipients wait ($name)', (backend) => {
  it('shows rows deferred by the frequency cap with until when, and the cap in effect', async () => {
    const rig = await startDashboard(backend);
    const seed = await seedCampaign(rig.store, T0, 3);
    await rig.store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    for (const row of await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 3 })) {
      const until = T0 + 7 * 24 * HOUR;
      await rig.store.appendDecisions([
        { outboxId: row.id, contactId: row.contactId, kind: 'defer', reason: 'frequency_cap', explanation: 'cap', until, at: T0 },
      ]);
      await rig.store.reschedule(row.id, 'w', { status: 'queued', until, capAttempt: false, errorCode: null }, T0);
    }
    const page = await rig.get(`/campaigns/${seed.campaignId}`, { cookie: await rig.login() });
    expect(page.text).toMatch(
      /<tr data-group="deferred:frequency_cap"><th>Deferred by your frequency cap<br><span class="until muted">until 2026-01-12 09:00 UTC<\/span><\/th><td class="num">3<\/td>/,
    );
    expect(page.text).toContain('Frequency cap: 2 per 7 days (PACER_FREQUENCY_CAP)');
  });

  it("shows rows waiting for their turn in the campaign's spread, and the spread in the send-window line", async () => {
    const rig = await startDashboard(backend);
    const seed = await seedCampaign(rig.store, T0, 2);
    const timing = { window: { from: 540, to: 1200, days: null }, spreadMs: 2 * HOUR };
    const spread = await rig.store.createCampaign(
      {
        name: 'Spread',
        templateId: seed.templateId,
        senderId: seed.senderId,
        segment: {},
        scheduledAt: null,
        policyPreset: 'meta',
        status: 'running',
        timing,
      },
      T0,
    );
    await rig.store.insertOutbox(
      seed.rows(() => T0).map((r) => ({ ...r, campaignId: spread })),
      T0,
    );
    for (const row of await rig.store.claimDue({ owner: 'w', now: T0, leaseMs: HOUR, limit: 2 })) {
      const until = T0 + HOUR;
      await rig.store.appendDecisions([
        { outboxId: row.id, contactId: row.contactId, kind: 'defer', reason: 'spread_in_window', explanation: 'turn', until, at: T0 },
      ]);
      await rig.store.reschedule(row.id, 'w', { status: 'queued', until, capAttempt: false, errorCode: null }, T0);
    }
    const page = await rig.get(`/campaigns/${spread}`, { cookie: await rig.login() });
    expect(page.text).toMatch(/<tr data-group="deferred:spread_in_window"><th>Waiting for its turn in the campaign&#39;s spread<br>/);
    expect(page.text).toContain('sends spread over 2 h after each opening');
  });
});

describe.each(BACKENDS)('Dashboard campaign page: message preview ($name)', (backend) => {
  it('shows one recipient’s message as a bubble, escaped, and the recipients a start would skip, by reason and slot', async () => {
    const rig = await startDashboard(backend);
    const { campaignId, contactIds } = await seedPreview(rig.store, T0);
    await rig.store.upsertContacts([{ phoneE164: '+447700900101', attributes: { first_name: '<b>Ada</b>' } }], T0);
    const cookie = await rig.login();
    const page = await rig.get(`/campaigns/${campaignId}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<h2>Message preview</h2><div class="wa-bubble"><p class="wa-header">Your coupon</p><p class="wa-body">Hi &lt;b&gt;Ada&lt;/b&gt;, your ADA15 coupon is waiting.</p>' +
        '<p class="wa-footer">Tap Stop promotions to opt out</p><ul class="wa-buttons"><li>Shop → https://shop.example/c/ADA15</li><li>Stop promotions</li></ul></div>',
    );
    expect(page.text).toContain(`As <a href="/contacts/${contactIds[0] ?? -1}">contact ${contactIds[0] ?? -1}</a> would read it.`);
    expect(page.text).toContain('7 matched now · 2 would be sent · 5 would be skipped for a template value');
    expect(page.text).toContain(
      '<tr data-slot="body.1"><td class="num">2</td><td>missing_parameter</td><td><code>body.1</code></td><td>body {{1}}: first_name is missing</td></tr>',
    );
    expect(page.text).toContain('<td>body {{1}}: first_name is not text</td>');
    expect(page.text).not.toContain('<b>Ada</b>');
  });

  it('says when the first recipients would all be skipped, and when the template’s text is not known', async () => {
    const rig = await startDashboard(backend);
    const { contactIds } = await seedPreview(rig.store, T0);
    const nobody = await createCouponCampaign(rig.store, T0, {
      'body.1': { attribute: 'nickname' },
      'body.2': { attribute: 'coupon' },
      'button.0': { attribute: 'coupon' },
    });
    const cookie = await rig.login();
    const skipped = await rig.get(`/campaigns/${nobody}`, { cookie });
    expect(skipped.text).toContain(
      `<p class="error">The first recipients would all be skipped, e.g. <a href="/contacts/${contactIds[0] ?? -1}">contact ${contactIds[0] ?? -1}</a>: body {{1}}: nickname is missing</p>`,
    );
    expect(skipped.text).not.toContain('class="wa-bubble"');
    const seed = await seedCampaign(rig.store, T0, 1);
    const unknown = await rig.get(`/campaigns/${seed.campaignId}`, { cookie });
    expect(unknown.text).toMatch(/<h2>Message preview<\/h2><p class="notice">promo\/en was registered by hand/);
  });
});
