import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSegment } from '../src/app/segment-schema.js';
import { EMPTY_CONTACT_STATE } from '../src/core/contact-state.js';
import { matchesSegment } from '../src/core/segment.js';
import { startApi, T0, type ApiRig, type Reply } from './api-harness.js';
import { BACKENDS } from './store-backends.js';
import { rawPost } from './webhook-endpoint-raw.js';

// Hostile input to every REST API body: never a crash or a 5xx, always a 4xx whose error names the
// field (or says the JSON is broken), and the server keeps answering afterwards.

const sqlite = BACKENDS.find((b) => b.name === 'sqlite');
if (sqlite === undefined) throw new Error('sqlite backend expected');

/** Bodies near the real ones (right keys, wrong values) and far from them (any JSON at all). */
const nearMessage = fc.record(
  {
    to: fc.oneof(fc.constantFrom('+447700900123', '447700900123', '', '+1', 'x'.repeat(300)), fc.string(), fc.integer(), fc.constant(null)),
    template: fc.oneof(fc.record({ name: fc.string(), language: fc.string() }, { requiredKeys: [] }), fc.string(), fc.constant(null)),
    text: fc.oneof(fc.string({ maxLength: 5000 }), fc.integer()),
    category: fc.oneof(fc.constantFrom('utility', 'marketing', 'authentication', 'service', 'spam'), fc.integer()),
    idempotencyKey: fc.oneof(fc.string(), fc.constant(''), fc.integer()),
  },
  { requiredKeys: [] },
);
const nearConsent = fc.record(
  {
    category: fc.oneof(fc.constantFrom('marketing', 'utility', 'nope'), fc.integer()),
    status: fc.oneof(fc.constantFrom('granted', 'revoked', 'maybe'), fc.boolean()),
    source: fc.oneof(fc.string(), fc.constant(null)),
    evidence: fc.oneof(fc.string(), fc.integer()),
    at: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
      fc.integer(),
    ),
  },
  { requiredKeys: [] },
);
const text = fc.oneof(fc.string(), fc.constant('a\u0000b'), fc.integer(), fc.constant(null));
const nearContact = fc.record(
  {
    phone: fc.oneof(fc.constantFrom('+447911123456', '07911 123456', '+1', '', 'x'.repeat(300)), fc.string(), fc.integer()),
    waId: fc.oneof(fc.constantFrom('447911123456', '+44'), fc.string()),
    bsuid: fc.oneof(fc.constantFrom('US.13491208655302741918', 'us.1'), fc.string()),
    name: text,
    attributes: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
    tags: fc.oneof(fc.array(text), fc.string(), fc.record({ add: fc.array(text), remove: fc.jsonValue() }, { requiredKeys: [] })),
    consent: fc.oneof(
      fc.dictionary(fc.constantFrom('marketing', 'utility', 'authentication', 'service', 'spam'), fc.oneof(nearConsent, fc.jsonValue())),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const nearReplay = fc.record(
  { ids: fc.oneof(fc.array(fc.oneof(fc.integer(), fc.string())), fc.string()), all: fc.oneof(fc.boolean(), fc.string()) },
  { requiredKeys: [] },
);
const nearCampaign = fc.record(
  {
    name: fc.oneof(fc.string(), fc.integer()),
    template: fc.oneof(
      fc.record({ name: fc.string(), language: fc.string(), id: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] }),
      fc.constant({ name: 'order_update', language: 'en_GB' }),
      fc.string(),
    ),
    parameters: fc.oneof(
      fc.dictionary(fc.string(), fc.oneof(fc.record({ value: fc.string() }), fc.record({ attribute: fc.string() }), fc.string())),
      fc.integer(),
    ),
    segment: fc.oneof(fc.record({ tagsAll: fc.array(fc.string()), consent: fc.array(fc.string()) }, { requiredKeys: [] }), fc.string()),
    sender: fc.oneof(fc.constantFrom('106540352242922', 'pn'), fc.string()),
    senderPool: fc.oneof(
      fc.record(
        {
          by: fc.constantFrom('spread', 'country', 'x'),
          numbers: fc.array(fc.string()),
          countries: fc.dictionary(fc.string(), fc.string()),
        },
        { requiredKeys: [] },
      ),
      fc.constant(null),
    ),
    policyPreset: fc.oneof(fc.constantFrom('meta', '12h', 'weekly'), fc.integer()),
    frequencyCap: fc.oneof(fc.constantFrom('1/7d', 'off', '99/1s'), fc.record({ max: fc.integer(), windowMs: fc.integer() }), fc.string()),
    timing: fc.oneof(
      fc.record(
        {
          window: fc.record({ from: fc.string(), to: fc.string(), days: fc.array(fc.string()) }, { requiredKeys: [] }),
          timeZone: fc.string(),
          maxDelayMs: fc.oneof(fc.integer(), fc.double()),
        },
        { requiredKeys: [] },
      ),
      fc.string(),
    ),
    scheduledAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
      fc.constant(null),
    ),
    endsAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
    ),
  },
  { requiredKeys: [] },
);
const anyBody = fc.oneof(
  fc.jsonValue(),
  fc.string().map((s) => ({ raw: s })),
);

async function send(rig: ApiRig, url: string, body: unknown, method: 'POST' | 'PATCH' = 'POST'): Promise<Reply> {
  if (typeof body === 'object' && body !== null && 'raw' in body && typeof body.raw === 'string')
    return rig.call(method, url, { raw: body.raw });
  return rig.call(method, url, { body });
}

function expectClearRefusalOrSuccess(r: Reply, what: string): void {
  expect(r.status, `${what}: ${r.text}`).toBeLessThan(500);
  if (r.status >= 400) {
    const json = r.json as { error?: unknown; message?: unknown; issues?: Array<{ path: string; message: string }> };
    expect(typeof json.error, `${what}: ${r.text}`).toBe('string');
    expect(String(json.message ?? '').length, `${what}: ${r.text}`).toBeGreaterThan(0);
    // A refused body names what is wrong: each issue has a path, and the sentence repeats it.
    for (const issue of json.issues ?? []) {
      expect(issue.path.length).toBeGreaterThan(0);
      expect(String(json.message)).toContain(issue.path);
    }
  }
}

describe('REST API under hostile bodies', () => {
  it('answers every POST route with a success or a clear 4xx, never a 5xx', async () => {
    const rig = await startApi(sqlite);
    const { ids } = await rig.store.upsertContacts([{ phoneE164: '+447700900123' }], T0);
    await rig.store.upsertTemplates(
      [{ name: 'order_update', language: 'en_GB', category: 'utility', status: 'approved', quality: null, pausedUntil: null }],
      T0,
    );
    const routes: Array<{ url: string; body: fc.Arbitrary<unknown>; method?: 'PATCH' }> = [
      { url: '/api/v1/contacts', body: fc.oneof(nearContact, anyBody) },
      { url: '/api/v1/contacts/bulk', body: fc.oneof(fc.array(fc.oneof(nearContact, fc.jsonValue()), { maxLength: 20 }), anyBody) },
      { url: `/api/v1/contacts/${ids[0]}`, body: fc.oneof(nearContact, anyBody), method: 'PATCH' },
      { url: '/api/v1/messages', body: fc.oneof(nearMessage, anyBody) },
      { url: `/api/v1/contacts/${ids[0]}/consent`, body: fc.oneof(nearConsent, anyBody) },
      { url: '/api/v1/contacts/abc/consent', body: nearConsent },
      { url: '/api/v1/campaigns/1/pause', body: anyBody },
      { url: '/api/v1/campaigns/-1/resume', body: anyBody },
      { url: '/api/v1/campaigns/99999999999999999999/cancel', body: anyBody },
      { url: '/api/v1/webhooks/quarantine/replay', body: fc.oneof(nearReplay, anyBody) },
      { url: '/api/v1/campaigns', body: fc.oneof(nearCampaign, anyBody) },
      {
        url: '/api/v1/campaigns/1/schedule',
        body: fc.oneof(fc.record({ scheduledAt: fc.oneof(fc.string(), fc.constant(null)) }), anyBody),
      },
      { url: '/api/v1/campaigns/1/start', body: anyBody },
      { url: '/api/v1/segments/preview', body: fc.oneof(fc.record({ segment: fc.jsonValue(), sample: fc.integer() }), anyBody) },
    ];
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(route.body, async (body) => {
          rig.clock.t += 60_000; // keep the token's rate-limit bucket full
          expectClearRefusalOrSuccess(await send(rig, route.url, body, route.method), route.url);
        }),
        { numRuns: 40, seed: 4711 },
      );
    }
    // Still serving afterwards.
    expect((await rig.call('GET', '/api/v1/templates')).status).toBe(200);
  }, 120_000);

  it('answers hostile query strings on the listing routes with a clear 4xx', async () => {
    const rig = await startApi(sqlite);
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (limit, after) => {
        rig.clock.t += 60_000;
        const r = await rig.call('GET', `/api/v1/contacts?limit=${encodeURIComponent(limit)}&after=${encodeURIComponent(after)}`);
        expectClearRefusalOrSuccess(r, `limit=${limit} after=${after}`);
      }),
      { numRuns: 60, seed: 4712 },
    );
  });
});

describe('REST API body limit', () => {
  it('refuses a body over the limit with 413 before reading it, declared or streamed', async () => {
    const rig = await startApi(sqlite);
    // A bare socket: only it can declare a length it never sends, or keep streaming past the answer.
    const origin = await rig.listen();
    const auth = { authorization: `Bearer ${rig.token}`, 'content-type': 'application/json' };
    // Declares 8 MB and sends a few bytes: the answer comes without the body ever arriving.
    const declared = await rawPost(
      origin,
      { ...auth, 'content-length': String(8 * 1024 * 1024) },
      [Buffer.from('{"to":')],
      '/api/v1/messages',
    );
    expect(declared.status).toBe(413);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const chunks = Array.from({ length: 256 }, () => chunk); // 64 MB, never all sent
    const streamed = await rawPost(origin, { ...auth, 'transfer-encoding': 'chunked' }, chunks, '/api/v1/messages');
    expect(streamed.status).toBe(413);
    expect(streamed.bytesWritten).toBeLessThan(chunks.length * chunk.length);
    expect((await rig.call('GET', '/api/v1/templates')).status).toBe(200);
  });
});

describe('segment filter language under hostile definitions', () => {
  it('refuses with an error naming the field, or parses into a filter that never throws', () => {
    const state = EMPTY_CONTACT_STATE;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record(
            {
              tagsAll: fc.array(fc.string()),
              tagsAny: fc.anything(),
              consent: fc.array(fc.string()),
              engagedWithinDays: fc.oneof(fc.integer(), fc.double()),
              exclude: fc.array(fc.constantFrom('cooling_off', 'held', 'stopped', 'unreachable', 'asleep')),
              attributes: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))),
            },
            { requiredKeys: [] },
          ),
        ),
        (value) => {
          let segment;
          try {
            segment = parseSegment(value, 'segment');
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
            expect((error as Error).message).toMatch(/^segment.*: \S/);
            return;
          }
          expect(typeof matchesSegment({ tags: ['vip'], attributes: { country: 'GB' } }, state, segment, T0)).toBe('boolean');
        },
      ),
      { numRuns: 500, seed: 4713 },
    );
  });
});
