import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { openStore } from '../src/adapters/storage/open-store.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { InboxPump } from '../src/app/inbox-pump.js';
import { processInbox, type InboxDeps } from '../src/app/process-inbox.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { VirtualClock } from '../src/ports/clock.js';
import { StoreError, type Store } from '../src/ports/store.js';
import { eventually } from './await-state.js';
import { BACKENDS } from './store-backends.js';
import { SECRET, startServer, T0, WEBHOOK } from './webhook-endpoint-server.js';

// Every payload is applied or quarantined on its own: one that cannot be stored never holds back the
// ones after it, and a database that is away leaves the whole batch to be tried again.
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');
const TEXT = (JSON.parse(readFileSync(path.join(FIXTURES, 'message.json'), 'utf8')) as Record<string, unknown>)['text'];
const WA_ID = '972987654321';

/** The fixture's text message, as these messages (wamid, body as JSON string content). */
function messages(...sent: Array<[wamid: string, body: string]>): string {
  const template = JSON.stringify(TEXT);
  const one = /\{"from":"972987654321","id":"wamid\.xyzxyz".*?"type":"text"\}/.exec(template)?.[0];
  if (one === undefined) throw new Error('the text fixture changed shape');
  const list = sent.map(([wamid, body]) => one.replace('wamid.xyzxyz', wamid).replace('"Body Text"', `"${body}"`)).join(',');
  return template.replace(one, list);
}

async function postSigned(store: Store, bodies: string[]): Promise<void> {
  const edge = await startServer(store); // stores only: the processor is run by the test
  for (const body of bodies) {
    const res = await edge.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
    });
    expect(res.statusCode).toBe(200);
  }
}

const deps = (store: Store, parse = parseWebhook): InboxDeps => ({
  store,
  policy: DEFAULT_POLICY,
  clock: { now: () => T0 },
  random: () => 0.5,
  parse,
});

async function texts(store: Store): Promise<Record<string, string | null>> {
  const contact = await store.findContact({ waId: WA_ID });
  const inbound = contact === null ? [] : await store.contactInbound(contact.id, 100);
  return Object.fromEntries(inbound.map((m) => [m.wamid, m.text]));
}

/** A parser that fails once, the way the store fails when its database is away, on the payload holding `wamid`. */
function failingOnce(wamid: string, error: Error): { parse: typeof parseWebhook; failed: () => boolean } {
  let failed = false;
  return {
    parse: (body) => {
      if (!failed && JSON.stringify(body).includes(wamid)) {
        failed = true;
        throw error;
      }
      return parseWebhook(body);
    },
    failed: () => failed,
  };
}

describe.each(BACKENDS)('inbox payloads applied one by one ($name)', (backend) => {
  it('stores a text with NUL (U+0000) as U+FFFD and applies the payloads around it', async () => {
    const store = await backend.open();
    await postSigned(store, [
      messages(['wamid.a', 'first']),
      messages(['wamid.nul', 'be\\u0000fore\\u0000']),
      messages(['wamid.b', 'last']),
    ]);
    expect(await processInbox(deps(store))).toEqual({ rows: 3, items: 3, quarantined: 0 });
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.nul': 'be\uFFFDfore\uFFFD', 'wamid.b': 'last' });
    expect(await store.listUnprocessedInbox(0, 10)).toEqual([]);
    expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
  });

  it('quarantines a payload the database refuses, undoing all of it, and applies the ones after it', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    // A rule the schema does not have, to make one payload fail deterministically on both backends.
    await place.raw(
      backend.name === 'postgres'
        ? `ALTER TABLE inbound_messages ADD CONSTRAINT no_poison CHECK (text IS DISTINCT FROM 'poison')`
        : `CREATE TRIGGER no_poison BEFORE INSERT ON inbound_messages WHEN NEW.text = 'poison' BEGIN SELECT RAISE(ABORT, 'poison refused'); END`,
    );
    await postSigned(store, [
      messages(['wamid.a', 'first']),
      messages(['wamid.kept-out', 'fine on its own'], ['wamid.poison', 'poison']),
      messages(['wamid.b', 'last']),
    ]);
    expect(await processInbox(deps(store))).toMatchObject({ rows: 3, quarantined: 1 });
    // The bad payload's first message is undone with it: a replay after a fix applies the payload whole.
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.b': 'last' });
    const quarantined = await store.listQuarantinedInbox(0, 10);
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]?.quarantineReason).toMatch(/^processing failed: recordInbound: (PostgreSQL 23514|SQLite SQLITE_CONSTRAINT)/);
    expect(Buffer.from(quarantined[0]?.raw ?? []).toString()).toContain('wamid.poison');
    expect(await store.listUnprocessedInbox(0, 10)).toEqual([]);
  });

  it('leaves the whole batch unapplied when the store is away, and applies it on the next pass', async () => {
    const store = await backend.open();
    await postSigned(store, [messages(['wamid.a', 'first']), messages(['wamid.b', 'second']), messages(['wamid.c', 'third'])]);
    const away = failingOnce('wamid.b', new StoreError('unavailable', 'recordInbound', 'PostgreSQL ECONNRESET: connection lost'));
    await expect(processInbox(deps(store, away.parse))).rejects.toMatchObject({ code: 'unavailable' });
    expect(await texts(store)).toEqual({});
    expect(await store.listUnprocessedInbox(0, 10)).toHaveLength(3);
    expect(await processInbox(deps(store, away.parse))).toEqual({ rows: 3, items: 3, quarantined: 0 });
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.b': 'second', 'wamid.c': 'third' });
    expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
  });

  it('quarantines a payload whose processing throws (a bug), and applies the rest', async () => {
    const store = await backend.open();
    await postSigned(store, [messages(['wamid.a', 'first']), messages(['wamid.b', 'second']), messages(['wamid.c', 'third'])]);
    const bug = failingOnce('wamid.b', new TypeError('cannot read properties of undefined'));
    expect(await processInbox(deps(store, bug.parse))).toMatchObject({ rows: 3, quarantined: 1 });
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.c': 'third' });
    expect((await store.listQuarantinedInbox(0, 10)).map((r) => r.quarantineReason)).toEqual([
      'processing failed: cannot read properties of undefined',
    ]);
  });

  it('the pump tries a failed pass again on its own, without a new webhook', async () => {
    const store = await backend.open();
    await postSigned(store, [messages(['wamid.a', 'first']), messages(['wamid.b', 'second'])]);
    const clock = new VirtualClock(T0);
    const away = failingOnce('wamid.a', new StoreError('busy', 'recordInbound', 'PostgreSQL 40P01: deadlock detected'));
    const errors: unknown[] = [];
    const pump = new InboxPump(deps(store, away.parse), (e) => errors.push(e), { scheduler: clock, retryMs: 5000 });
    await pump.drain();
    expect(errors).toHaveLength(1);
    expect(await store.listUnprocessedInbox(0, 10)).toHaveLength(2);
    await clock.advance(5000); // nothing else kicks the pump: only its own timer can
    const applied = async (): Promise<boolean> => Object.keys(await texts(store)).length === 2;
    expect(await eventually(applied, Date.now() + 10_000, 20)).toBe(true);
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.b': 'second' });
    expect(pump.totals).toMatchObject({ rows: 2, items: 2, quarantined: 0 });
    await pump.stop();
  });
});

describe('inbox batch on PostgreSQL when the connection is lost mid-batch', () => {
  it('rolls the batch back, reports the store unavailable, and applies it all on the next pass', async () => {
    const postgres = BACKENDS.find((b) => b.name === 'postgres');
    if (postgres === undefined) throw new Error('the PostgreSQL backend is expected');
    const place = postgres.place();
    const store = openStore({ ...place.options, applicationName: 'pacer inbox-isolation' });
    await store.migrate();
    // The server ends the connection of the transaction itself, once (a sequence is not rolled back).
    await place.raw(`CREATE SEQUENCE cut_once;
CREATE FUNCTION cut_connection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.wamid = 'wamid.b' AND nextval('cut_once') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER cut_connection BEFORE INSERT ON inbound_messages FOR EACH ROW EXECUTE FUNCTION cut_connection();`);
    await postSigned(store, [messages(['wamid.a', 'first']), messages(['wamid.b', 'second']), messages(['wamid.c', 'third'])]);
    await expect(processInbox(deps(store))).rejects.toMatchObject({ name: 'StoreError', code: 'unavailable' });
    expect(await store.listUnprocessedInbox(0, 10)).toHaveLength(3);
    expect(await processInbox(deps(store))).toEqual({ rows: 3, items: 3, quarantined: 0 });
    expect(await texts(store)).toEqual({ 'wamid.a': 'first', 'wamid.b': 'second', 'wamid.c': 'third' });
    expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
    await store.close();
  });
});

describe.each(BACKENDS)('text with NUL in any column ($name)', (backend) => {
  it('is stored with U+FFFD in text and JSON columns alike', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts([{ waId: WA_ID, name: 'An\0a', attributes: { note: 'x\0y', ['k\0']: 1 } }], T0);
    expect(await store.getContact(ids[0] ?? -1)).toMatchObject({ name: 'An\uFFFDa', attributes: { note: 'x\uFFFDy', 'k\uFFFD': 1 } });
  });
});
