import { describe, expect, it } from 'vitest';
import { body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

type Refusal = { error: string; message: string; issues?: Array<{ path: string; message: string }> };

describe.each(BACKENDS)('REST API: bad input refused at the edge ($name)', (backend) => {
  it('refuses an unknown query parameter with 400 naming it and the ones the operation takes', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('GET', '/api/v1/contacts?email=ada%40example.com');
    expect(r).toMatchObject({ status: 400, json: { error: 'invalid_query', issues: [{ path: 'email' }] } });
    expect(body<Refusal>(r).message).toBe(
      'the request query is not valid: email: unknown query parameter: this operation takes limit, after, phone, wa_id, bsuid, tag, default_country',
    );
    // An operation that takes no query refuses any.
    const { ids } = await rig.store.upsertContacts([{ phoneE164: '+447700900123' }], T0);
    const none = await rig.call('GET', `/api/v1/contacts/${ids[0]}?verbose=1&x=2`);
    expect(none).toMatchObject({ status: 400, json: { issues: [{ path: 'verbose' }, { path: 'x' }] } });
    expect(body<Refusal>(none).message).toContain('verbose: unknown query parameter: this operation takes none');
    expect((await rig.call('GET', '/api/v1/openapi.json?pretty=1', { token: null })).status).toBe(400);
  });

  it('keeps the documented parameters working', async () => {
    const rig = await startApi(backend);
    for (const url of [
      '/api/v1/contacts?limit=5&after=1',
      '/api/v1/campaigns?status=running',
      '/api/v1/webhooks/quarantine?limit=10',
      '/api/v1/diagnose?since=7d',
      '/api/v1/openapi.json',
    ])
      expect((await rig.call('GET', url)).status, url).toBe(200);
    // A client library that sends a Content-Type with every GET is not refused: a GET's body is never read.
    expect((await rig.call('GET', '/api/v1/contacts', { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
  });

  it('refuses an unknown body field with 400 naming it', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('POST', '/api/v1/messages', {
      body: { to: '+14155550123', category: 'service', text: 'hi', priority: 'high' },
    });
    expect(r).toMatchObject({ status: 400, json: { error: 'invalid_body', issues: [{ path: 'priority' }] } });
    expect(body<Refusal>(r).message).toContain(
      'priority: unknown field: this operation takes to, category, template, text, idempotencyKey, reference, from',
    );
  });

  it('answers an oversize body with 413 naming the limit', async () => {
    const rig = await startApi(backend);
    const r = await rig.call('POST', '/api/v1/messages', {
      raw: JSON.stringify({ to: '+1', category: 'service', text: 'x'.repeat(1_100_000) }),
    });
    expect(r).toMatchObject({
      status: 413,
      json: { error: 'body_too_large', message: 'the request body is larger than this operation takes: at most 1 MiB (1048576 bytes)' },
    });
  });

  it('answers a body of another type with 415 naming what is accepted, before reading it', async () => {
    const rig = await startApi(backend);
    const text = await rig.call('POST', '/api/v1/messages', { raw: 'to=1', headers: { 'content-type': 'text/plain' } });
    expect(text).toMatchObject({
      status: 415,
      json: { error: 'unsupported_media_type', message: 'Content-Type text/plain is not accepted here: send application/json' },
    });
    const ndjson = await rig.call('POST', '/api/v1/messages', { raw: '{}\n{}', headers: { 'content-type': 'application/x-ndjson' } });
    expect(ndjson).toMatchObject({ status: 415, json: { message: expect.stringContaining('send application/json') as string } });
    const untyped = await rig.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { authorization: `Bearer ${rig.token}` },
      payload: Buffer.from('{"to":"x"}'),
    });
    expect(untyped.statusCode).toBe(415);
    expect(JSON.parse(untyped.body)).toMatchObject({ message: 'the body has no Content-Type: send application/json' });
    // A POST without a body at all is not a content-type question.
    expect((await rig.call('POST', '/api/v1/campaigns/999/resume')).status).toBe(404);
    expect(
      (await rig.call('POST', '/api/v1/messages', { raw: '{}', headers: { 'content-type': 'application/json; charset=utf-8' } })).status,
    ).toBe(400);
  });
});
