import { describe, expect, it } from 'vitest';
import { DAY, HOUR, iso, MINUTE } from '../src/core/time.js';
import type { Store } from '../src/ports/store.js';
import { ADMIN_TOKEN, body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

/** A campaign of 25 started two hours ago; every fifth recipient was capped (131049). */
async function playedCampaign(store: Store): Promise<number> {
  const start = T0 - 2 * HOUR;
  const seed = await seedCampaign(store, start, 25);
  await store.insertOutbox(
    seed.rows(() => start),
    start,
  );
  const rows = await store.claimDue({ owner: 'w', now: start, leaseMs: HOUR, limit: 25 });
  for (const [i, row] of rows.entries()) {
    const at = start + i * MINUTE;
    const wamid = `wamid.${i}`;
    const capped = i % 5 === 0;
    await store.appendDecisions([
      { outboxId: row.id, contactId: row.contactId, kind: 'send', reason: 'ok', explanation: 'sent', until: null, at },
    ]);
    await store.recordIntent(row.id, 'w', at);
    await store.recordAccepted(row.id, 'w', wamid, at);
    await store.appendMessageEvent(
      { wamid, status: capped ? 'failed' : 'read', at: at + MINUTE, errorCode: capped ? 131049 : null, inboxId: null, outboxId: row.id },
      at,
    );
    await store.recordDelivery({ wamid, outboxId: row.id }, capped ? 'failed' : 'read', capped ? 131049 : null, at + MINUTE);
  }
  return seed.campaignId;
}

describe.each(BACKENDS)('REST API: diagnose ($name)', (backend) => {
  it('diagnoses one campaign, or all sends since a time', async () => {
    const rig = await startApi(backend);
    const id = await playedCampaign(rig.store);
    const one = await rig.call('GET', `/api/v1/diagnose?campaign=${id}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      verdict: 'recipient_level',
      subject: null,
      scope: { campaign: { id, name: 'c', template: 'promo (en)' }, since: iso(T0 - 2 * HOUR), until: iso(T0 + 1) },
      facts: {
        sends: { messages: 25, recipients: 25, attempts: 25 },
        failures: [{ code: 131049, messages: 5, recipients: 5 }],
        templates: [{ label: 'promo (en)', messages: 25, delivered: 20, read: 20, capped: 5 }],
        senders: [{ phoneNumberId: 'pn-1', quality: 'GREEN', state: 'ok', reason: null }],
      },
    });
    const report = body<{ evidence: Array<{ decisive: boolean; text: string }>; action: string }>(one);
    expect(report.evidence.filter((e) => e.decisive)[0]?.text).toBe(
      '100.0% of failed messages are per-user caps (5 of 5); 20.0% of recipients failed.',
    );
    expect(report.action).toMatch(/cool-off/);
    // All traffic of the last hour: the campaign sent everything before it.
    const lastHour = await rig.call('GET', '/api/v1/diagnose?since=1h');
    expect(lastHour.json).toMatchObject({
      scope: { campaign: null, since: iso(T0 - HOUR) },
      facts: { sends: { messages: 0 } },
      verdict: 'insufficient_data',
    });
    const sinceIso = await rig.call('GET', `/api/v1/diagnose?since=${encodeURIComponent(iso(T0 - 2 * HOUR + 10 * MINUTE))}`);
    expect(sinceIso.json).toMatchObject({ facts: { sends: { messages: 15 } } });
    const week = await rig.call('GET', '/api/v1/diagnose');
    expect(week.json).toMatchObject({ scope: { since: iso(T0 - 7 * DAY) }, facts: { sends: { messages: 25 } } });
  });

  it('refuses a missing or wrong token', async () => {
    const rig = await startApi(backend);
    expect(await rig.call('GET', '/api/v1/diagnose', { token: null })).toMatchObject({ status: 401, json: { error: 'unauthorized' } });
    expect(await rig.call('GET', '/api/v1/diagnose', { token: 'not-a-token' })).toMatchObject({
      status: 401,
      json: { error: 'unauthorized' },
    });
    expect(await rig.call('GET', '/api/v1/diagnose', { token: ADMIN_TOKEN })).toMatchObject({
      status: 200,
      json: { verdict: 'insufficient_data' },
    });
  });

  it('names the query field that is wrong, and answers 404 for an unknown campaign', async () => {
    const rig = await startApi(backend);
    expect(await rig.call('GET', '/api/v1/diagnose?since=yesterday')).toMatchObject({
      status: 400,
      json: {
        error: 'invalid_query',
        issues: [{ path: 'since', message: expect.stringContaining('7d, 36h, 90m, 2w or an ISO 8601 time') as string }],
      },
    });
    expect(await rig.call('GET', '/api/v1/diagnose?since=2999-01-01T00:00:00Z')).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'since', message: expect.stringContaining('not in the past') as string }] },
    });
    expect(await rig.call('GET', '/api/v1/diagnose?campaign=abc')).toMatchObject({
      status: 400,
      json: { error: 'invalid_query', issues: [{ path: 'campaign' }] },
    });
    expect(await rig.call('GET', '/api/v1/diagnose?campaign=42')).toMatchObject({
      status: 404,
      json: { error: 'not_found', message: 'campaign 42 does not exist' },
    });
  });

  it('documents the route with its query parameters and response', async () => {
    const rig = await startApi(backend);
    const doc = body<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: Array<{ name: string; in: string }>;
            responses: Record<string, { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
          }
        >
      >;
    }>(await rig.call('GET', '/api/v1/openapi.json'));
    const op = doc.paths['/api/v1/diagnose']?.['get'];
    expect(op?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:campaign', 'query:since']);
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(Object.keys(op?.responses['200']?.content['application/json']?.schema.properties ?? {})).toEqual([
      'verdict',
      'subject',
      'summary',
      'action',
      'evidence',
      'scope',
      'facts',
    ]);
  });
});
