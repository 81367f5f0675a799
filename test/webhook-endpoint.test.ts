import { describe, expect, it } from 'vitest';
import { WEBHOOK_BODY_LIMIT } from '../src/adapters/http/webhook-routes.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { BACKENDS } from './store-backends.js';
import { rawPost } from './webhook-endpoint-raw.js';
import {
  OLD_SECRET,
  SECRET,
  T0,
  VERIFY_TOKEN,
  WEBHOOK,
  get,
  inbox,
  post,
  rawOf,
  signedPost,
  startServer,
} from './webhook-endpoint-server.js';

// Not what JSON.stringify would produce: odd spacing, escapes, key order, emoji and accents.
const STATUS_BODY = Buffer.from(
  '{ "object":"whatsapp_business_account", "entry":[{"id":"102290129340398","changes":[{"field":"messages",\n' +
    '  "value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550001111","phone_number_id":"106540352242922"},\n' +
    '  "contacts":[{"profile":{"name":"Zoë Ñúñez 😀🇧🇷"},"wa_id":"447700900123"}],\n' +
    '  "statuses":[{"id":"wamid.ABC","status":"delivered","timestamp":"1760000000","recipient_id":"447700900123","note":"caf\\u00e9 café"}]}}]}],\t"n":1.0 }\n',
  'utf8',
);

describe.each(BACKENDS)('webhook endpoint ($name)', (backend) => {
  describe('verification handshake', () => {
    it('answers the challenge as plain text when the token matches', async () => {
      const { app } = await startServer(await backend.open());
      const res = await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(res.status).toBe(200);
      expect(res.body).toBe('1158201444');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
    });

    it('refuses a wrong or missing token with 403', async () => {
      const { app } = await startServer(await backend.open());
      const wrong = await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=42`);
      expect(wrong.status).toBe(403);
      expect(wrong.body).not.toContain('42');
      const missing = await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.challenge=42`);
      expect(missing.status).toBe(403);
      expect(JSON.parse(missing.body)).toMatchObject({ message: expect.stringContaining('hub.verify_token') });
    });

    it('refuses every handshake when no verify token is configured', async () => {
      const { app } = await startServer(await backend.open(), { verifyToken: null });
      const res = await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=&hub.challenge=42`);
      expect(res.status).toBe(403);
    });

    it('answers 400 naming each missing or wrong parameter', async () => {
      const { app } = await startServer(await backend.open());
      const noChallenge = await get(app, `${WEBHOOK}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`);
      expect(noChallenge.status).toBe(400);
      expect(JSON.parse(noChallenge.body).message).toBe('query parameter hub.challenge is missing');
      const noMode = await get(app, `${WEBHOOK}?hub.verify_token=${VERIFY_TOKEN}&hub.challenge=7`);
      expect(noMode.status).toBe(400);
      expect(JSON.parse(noMode.body).message).toBe('query parameter hub.mode is missing');
      const badMode = await get(app, `${WEBHOOK}?hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=7`);
      expect(JSON.parse(badMode.body).message).toBe('query parameter hub.mode must be "subscribe"');
    });
  });

  describe('signed POST', () => {
    it('stores the exact bytes received, then answers 200 and reports the id', async () => {
      const store = await backend.open();
      const stored: number[] = [];
      const { app } = await startServer(store, {}, { onStored: (ids) => void stored.push(...ids) });
      const res = await signedPost(app, STATUS_BODY);
      expect(res.status).toBe(200);
      const rows = await inbox(store);
      expect(rows).toHaveLength(1);
      expect(rawOf(rows[0]).equals(STATUS_BODY)).toBe(true);
      expect(rows[0]).toMatchObject({ receivedAt: T0, signatureOk: true, processedAt: null });
      expect(app.pacerMetrics.webhookStored).toBe(1);
      expect(stored).toEqual([rows[0]?.id]);
    });

    it('stores a correctly signed body that is not JSON: the processor quarantines it, nothing is lost', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      const broken = Buffer.from('{"object":"whatsapp_business_account","entry":[{"id": ', 'utf8');
      expect((await signedPost(app, broken)).status).toBe(200);
      expect(rawOf((await inbox(store))[0]).equals(broken)).toBe(true);
    });

    it('stores every delivery of a duplicate: dedupe belongs to processing', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      expect((await signedPost(app, STATUS_BODY)).status).toBe(200);
      expect((await signedPost(app, STATUS_BODY)).status).toBe(200);
      const rows = await inbox(store);
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => rawOf(r).equals(STATUS_BODY))).toBe(true);
    });

    it('accepts any content type as raw bytes', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      const res = await post(app, STATUS_BODY, {
        'content-type': 'text/plain; charset=latin1',
        'x-hub-signature-256': signBody(STATUS_BODY, SECRET),
      });
      expect(res.status).toBe(200);
      expect(rawOf((await inbox(store))[0]).equals(STATUS_BODY)).toBe(true);
    });

    it('accepts a signature made with any configured secret (rotation)', async () => {
      const store = await backend.open();
      const { app } = await startServer(store, { appSecrets: [SECRET, OLD_SECRET] });
      expect((await signedPost(app, STATUS_BODY, OLD_SECRET)).status).toBe(200);
      expect((await signedPost(app, STATUS_BODY, SECRET)).status).toBe(200);
      expect(await inbox(store)).toHaveLength(2);
    });
  });

  describe('refused POST', () => {
    it('answers 401 to a wrong signature, stores nothing and counts it', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      const res = await signedPost(app, STATUS_BODY, 'not-the-secret');
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).message).toContain('X-Hub-Signature-256');
      // One changed byte after signing: the signature covers the bytes, not the meaning.
      const tampered = Buffer.from(STATUS_BODY);
      tampered[tampered.length - 2] = 0x20;
      expect((await post(app, tampered, { 'x-hub-signature-256': signBody(STATUS_BODY, SECRET) })).status).toBe(401);
      expect(await inbox(store)).toEqual([]);
      expect(app.pacerMetrics.webhookRejected).toEqual({ missing: 0, malformed: 0, mismatch: 2, no_secret_configured: 0 });
      expect(app.pacerMetrics.webhookStored).toBe(0);
    });

    it('answers 401 to a missing or malformed signature header', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      expect((await post(app, STATUS_BODY)).status).toBe(401);
      expect((await post(app, STATUS_BODY, { 'x-hub-signature-256': 'sha1=abc' })).status).toBe(401);
      expect(await inbox(store)).toEqual([]);
      expect(app.pacerMetrics.webhookRejected).toMatchObject({ missing: 1, malformed: 1 });
    });

    it('in production without an app secret refuses every POST, signed or not, and warns at start', async () => {
      const store = await backend.open();
      const { app, logs } = await startServer(store, { appSecrets: [] });
      expect((await signedPost(app, STATUS_BODY)).status).toBe(401);
      expect((await post(app, STATUS_BODY)).status).toBe(401);
      expect(await inbox(store)).toEqual([]);
      expect(app.pacerMetrics.webhookRejected.no_secret_configured).toBe(2);
      expect(logs.some((l) => l['level'] === 40 && String(l['msg']).includes('WHATSAPP_APP_SECRET'))).toBe(true);
    });

    it('refuses a body over the limit with 413 before reading it', async () => {
      const store = await backend.open();
      const { app, listen } = await startServer(store);
      // A bare socket: only it can declare a length it never sends, or keep streaming past the answer.
      const origin = await listen();
      // Declares 4 MB but sends a few bytes: the answer comes without the body ever arriving.
      const declared = await rawPost(
        origin,
        { 'content-length': String(4 * 1024 * 1024), 'content-type': 'application/json', 'x-hub-signature-256': signBody('{}', SECRET) },
        [Buffer.from('{"a":')],
      );
      expect(declared.status).toBe(413);
      // Chunked, no length given: the server answers once the limit is passed, long before a 64 MB
      // stream could end (socket buffers hold a few MB at most).
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      const chunks = Array.from({ length: (64 * 1024 * 1024) / chunk.length }, () => chunk);
      const streamed = await rawPost(
        origin,
        { 'transfer-encoding': 'chunked', 'content-type': 'application/json', 'x-hub-signature-256': signBody('{}', SECRET) },
        chunks,
      );
      expect(streamed.status).toBe(413);
      expect(streamed.bytesWritten).toBeGreaterThan(WEBHOOK_BODY_LIMIT);
      expect(streamed.bytesWritten).toBeLessThan(chunks.length * chunk.length);
      expect(await inbox(store)).toEqual([]);
      expect(app.pacerMetrics.webhookTooLarge).toBe(2);
    });

    it('accepts a body just under the limit', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      const body = Buffer.concat([Buffer.from('{"pad":"'), Buffer.alloc(WEBHOOK_BODY_LIMIT - 10, 0x62), Buffer.from('"}')]);
      expect((await signedPost(app, body)).status).toBe(200);
      expect(rawOf((await inbox(store))[0]).equals(body)).toBe(true);
    });
  });

  describe('development mode', () => {
    it('without a secret stores unsigned payloads, marked unverified, and warns', async () => {
      const store = await backend.open();
      const { app, logs } = await startServer(store, { appSecrets: [], mode: 'development' });
      expect((await post(app, STATUS_BODY)).status).toBe(200);
      const [row] = await inbox(store);
      expect(rawOf(row).equals(STATUS_BODY)).toBe(true);
      expect(row?.signatureOk).toBe(false);
      expect(logs.some((l) => l['level'] === 40 && String(l['msg']).includes('unsigned'))).toBe(true);
    });

    it('with a secret still requires signatures', async () => {
      const store = await backend.open();
      const { app } = await startServer(store, { mode: 'development' });
      expect((await post(app, STATUS_BODY)).status).toBe(401);
      expect((await signedPost(app, STATUS_BODY)).status).toBe(200);
      expect((await inbox(store)).map((r) => r.signatureOk)).toEqual([true]);
    });
  });

  describe('store failures', () => {
    it('answers 503 when the database refuses writes, so Meta redelivers', async () => {
      const place = backend.place();
      const writer = place.open();
      await writer.migrate();
      const { app } = await startServer(place.open({ readOnly: true }));
      const res = await signedPost(app, STATUS_BODY);
      expect(res.status).toBe(503);
      expect(res.body).not.toContain('447700900123');
      expect(app.pacerMetrics).toMatchObject({ webhookStoreFailed: 1, webhookStored: 0 });
      expect(await inbox(writer)).toEqual([]);
    });

    it('answers 503 to POSTs and to /healthz once the store is closed', async () => {
      const store = await backend.open();
      const { app } = await startServer(store);
      expect(await get(app, '/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      await store.close();
      expect((await signedPost(app, STATUS_BODY)).status).toBe(503);
      expect((await get(app, '/healthz')).status).toBe(503);
    });
  });
});
