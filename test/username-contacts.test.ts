import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { processInbox } from '../src/app/process-inbox.js';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import type { Contact, Store } from '../src/ports/store.js';
import { BACKENDS } from './store-backends.js';
import { SECRET, startServer, WEBHOOK } from './webhook-endpoint-server.js';

// Users who hide their number behind a username, through the real edge: signed POST → inbox → processor → contacts.
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/bsuid/username-users.json');
const cases = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown>;
const NOW = Date.UTC(2026, 0, 5, 9, 0, 0);
const ANA = 'US.13491208655302741918';
const ANA_NEW = 'US.24817305912873645029';
const BEN = 'GB.40000000000000000001';
const clock = { now: () => NOW };

/** A fixture as JSON text, with values replaced (ids, numbers) without changing its shape. */
function fixture(name: string, replace: Record<string, string> = {}): string {
  if (!(name in cases)) throw new Error(`no fixture ${name}`);
  let text = JSON.stringify(cases[name]);
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  return text;
}

async function post(app: FastifyInstance, body: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: WEBHOOK,
    payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
  });
  expect(res.statusCode).toBe(200);
}

async function allContacts(store: Store): Promise<Contact[]> {
  return store.listContacts(0, 1000);
}

const keys = (c: Contact | null) => (c === null ? null : { waId: c.waId, bsuid: c.bsuid, phoneE164: c.phoneE164 });

describe.each(BACKENDS)('username users become contacts by business-scoped id ($name)', (backend) => {
  async function rig() {
    const store = await backend.open();
    const server = await startServer(store);
    const process = () => processInbox({ store, policy: DEFAULT_POLICY, clock, random: () => 0.5, parse: parseWebhook });
    return { store, app: server.app, process };
  }

  it('statuses of two username users with recipient_id "" stay two contacts, applied without quarantine', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('status_delivered_empty_phone'));
    await post(app, fixture('status_delivered_empty_phone', { [ANA]: BEN, 'wamid.HBgL': 'wamid.OTHER' }));
    expect(await process()).toEqual({ rows: 2, items: 2, quarantined: 0 });
    expect(await store.listQuarantinedInbox(0, 10)).toEqual([]);
    const contacts = await allContacts(store);
    expect(contacts.map(keys)).toEqual([
      { waId: null, bsuid: ANA, phoneE164: null },
      { waId: null, bsuid: BEN, phoneE164: null },
    ]);
  });

  it('inbound messages with from "" or omitted resolve to the one contact of their BSUID', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('text_empty_phone'));
    await post(app, fixture('text_phone_withheld', { 'wamid.HBgL': 'wamid.OTHER' }));
    expect(await process()).toMatchObject({ rows: 2, quarantined: 0 });
    expect((await allContacts(store)).map(keys)).toEqual([{ waId: null, bsuid: ANA, phoneE164: null }]);
  });

  it('a non-digit from never becomes a phone number, and the payload says where it is wrong', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('text_phone_withheld', { [`"from_user_id":"${ANA}"`]: `"from":"bla","from_user_id":"${ANA}"` }));
    await post(app, fixture('text_phone_withheld', { [`"from_user_id":"${ANA}"`]: '"from":"US.1234"', 'wamid.HBgL': 'wamid.OTHER' }));
    expect(await process()).toMatchObject({ rows: 2, quarantined: 2 });
    const reasons = (await store.listQuarantinedInbox(0, 10)).map((r) => r.quarantineReason);
    expect(reasons[0]).toMatch(
      /^applied 1 good item\(s\); malformed: entry\[0\]\.changes\[0\]\.value\.messages\[0\]\.from: expected a phone number as digits/,
    );
    expect(reasons[1]).toMatch(/messages\[0\]\.from: expected a phone number as digits/);
    expect(reasons.join(' ')).not.toMatch(/bla|US\.1234/);
    const contacts = await allContacts(store);
    expect(contacts.map(keys)).toEqual([{ waId: null, bsuid: ANA, phoneE164: null }]);
    expect(await store.findContact({ phoneE164: '+bla' })).toBeNull();
    expect(await store.findContact({ phoneE164: '+US.1234' })).toBeNull();
  });

  it('a contact known by phone, then seen with a BSUID, is one contact: the phone is its alias', async () => {
    const { store, app, process } = await rig();
    const { ids } = await store.upsertContacts([{ waId: '16505551234', phoneE164: '+16505551234', name: 'Ana' }], NOW);
    await post(app, fixture('text_phone_and_bsuid'));
    await post(app, fixture('text_phone_withheld'));
    await post(app, fixture('status_delivered_empty_phone'));
    expect(await process()).toMatchObject({ rows: 3, quarantined: 0 });
    const contacts = await allContacts(store);
    expect(contacts.map((c) => c.id)).toEqual(ids);
    expect(keys(contacts[0] ?? null)).toEqual({ waId: '16505551234', bsuid: ANA, phoneE164: '+16505551234' });
    expect((await store.contactInbound(ids[0] as number, 10)).length).toBe(2);
  });

  it('a BSUID contact gains the number once Meta discloses it; a separate phone-only record of the same person is left alone', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('text_phone_withheld'));
    await process();
    await post(app, fixture('text_phone_and_bsuid'));
    await process();
    expect((await allContacts(store)).map(keys)).toEqual([{ waId: '16505551234', bsuid: ANA, phoneE164: '+16505551234' }]);
    // Known twice: by number (imported) and by BSUID (a username user wrote in). Meta pairing them
    // resolves to the BSUID record, and never empties the other.
    const { ids } = await store.upsertContacts([{ waId: '447700900123', phoneE164: '+447700900123' }], NOW);
    await post(app, fixture('text_phone_withheld', { [ANA]: BEN, 'wamid.HBgL': 'wamid.OTHER' }));
    await post(app, fixture('text_phone_and_bsuid', { [ANA]: BEN, '16505551234': '447700900123', 'wamid.HBgL': 'wamid.THIRD' }));
    expect(await process()).toMatchObject({ rows: 2, quarantined: 0 });
    const ben = await store.findContact({ bsuid: BEN });
    expect(keys(ben)).toEqual({ waId: null, bsuid: BEN, phoneE164: null });
    expect(keys(await store.getContact(ids[0] as number))).toEqual({ waId: '447700900123', bsuid: null, phoneE164: '+447700900123' });
    expect((await store.contactInbound(ben?.id ?? 0, 10)).length).toBe(2);
  });

  it('user_id_update moves the contact to its new BSUID and number; later messages under the new id find it', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('text_phone_withheld'));
    await process();
    const [before] = await allContacts(store);
    await post(app, fixture('user_id_update'));
    await post(app, fixture('text_phone_withheld', { [ANA]: ANA_NEW, 'wamid.HBgL': 'wamid.OTHER' }));
    expect(await process()).toMatchObject({ rows: 2, quarantined: 0 });
    const contacts = await allContacts(store);
    expect(contacts.map((c) => c.id)).toEqual([before?.id]);
    expect(keys(contacts[0] ?? null)).toEqual({ waId: '16505550199', bsuid: ANA_NEW, phoneE164: '+16505550199' });
    expect(await store.findContact({ bsuid: ANA })).toBeNull();
  });

  it('a user_changed_user_id notice moves the contact to its new BSUID too', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('text_phone_withheld'));
    await process();
    const [before] = await allContacts(store);
    await post(app, fixture('system_user_changed_user_id'));
    expect(await process()).toMatchObject({ rows: 1, quarantined: 0 });
    const contacts = await allContacts(store);
    expect(contacts.map((c) => [c.id, c.bsuid])).toEqual([[before?.id, ANA_NEW]]);
  });

  it('user_id_update for an id never seen is a first sighting of the new id', async () => {
    const { store, app, process } = await rig();
    await post(app, fixture('user_id_update_phone_withheld'));
    expect(await process()).toMatchObject({ rows: 1, quarantined: 0 });
    expect((await allContacts(store)).map(keys)).toEqual([{ waId: null, bsuid: ANA_NEW, phoneE164: null }]);
  });

  it('a number Meta now pairs with another BSUID has passed to someone else: it moves to their contact', async () => {
    const { store, app, process } = await rig();
    const { ids } = await store.upsertContacts([{ waId: '16505551234', phoneE164: '+16505551234', bsuid: BEN }], NOW);
    await post(app, fixture('text_phone_and_bsuid'));
    expect(await process()).toMatchObject({ quarantined: 0 });
    const contacts = await allContacts(store);
    expect(contacts.map(keys)).toEqual([
      { waId: null, bsuid: BEN, phoneE164: null },
      { waId: '16505551234', bsuid: ANA, phoneE164: '+16505551234' },
    ]);
    expect(contacts[0]?.id).toBe(ids[0]);
  });
});

describe.each(BACKENDS)('setContactKeys ($name)', (backend) => {
  it('moves an identifier from another contact, but never leaves that contact without one', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts([{ waId: '447700900001', bsuid: BEN }, { waId: '447700900002' }, { bsuid: ANA }], NOW);
    const [a, b, c] = ids as [number, number, number];
    await store.setContactKeys(c, { waId: '447700900001' }, NOW + 1);
    await store.setContactKeys(c, { bsuid: ANA_NEW, phoneE164: '+447700900002' }, NOW + 1);
    await store.setContactKeys(a, { waId: '447700900002' }, NOW + 1);
    expect(keys(await store.getContact(a))).toEqual({ waId: null, bsuid: BEN, phoneE164: null });
    // b had only this wa_id: it keeps it, and a does not get it.
    expect(keys(await store.getContact(b))).toEqual({ waId: '447700900002', bsuid: null, phoneE164: null });
    expect(keys(await store.getContact(c))).toEqual({ waId: '447700900001', bsuid: ANA_NEW, phoneE164: '+447700900002' });
    expect((await store.getContact(c))?.updatedAt).toBe(NOW + 1);
  });
});

describe.each(BACKENDS)('migration 15 clears the phone numbers username users were stored with ($name)', (backend) => {
  it('clears "" and non-digit numbers where the contact keeps another identifier, and only there', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    const row = (waId: string | null, bsuid: string | null, phone: string | null, name: string) =>
      `(${[waId, bsuid, phone, name].map((v) => (v === null ? 'NULL' : `'${v}'`)).join(', ')}, '{}', '[]', 1, 1)`;
    await place.raw(`INSERT INTO contacts (wa_id, bsuid, phone_e164, name, attributes, tags, created_at, updated_at) VALUES
${[
  row('', ANA, '+', 'merged username users'),
  row('US.1234', null, '+447700900001', 'non-digit wa_id, real number'),
  row('447700900002', null, '+US.9', 'real wa_id, non-digit number'),
  row('bla', null, '+bla', 'nothing else to know them by'),
  row('447700900003', BEN, '+447700900003', 'sound'),
].join(',\n')};`);
    const { contactKeysNotEmpty } = await import('../src/adapters/storage/migrations/0015-contact-keys-not-empty.js');
    await place.raw(backend.name === 'sqlite' ? contactKeysNotEmpty.sqlite : contactKeysNotEmpty.postgres);
    expect((await allContacts(store)).map((c) => ({ name: c.name, ...keys(c) }))).toEqual([
      { name: 'merged username users', waId: null, bsuid: ANA, phoneE164: null },
      { name: 'non-digit wa_id, real number', waId: null, bsuid: null, phoneE164: '+447700900001' },
      { name: 'real wa_id, non-digit number', waId: '447700900002', bsuid: null, phoneE164: null },
      { name: 'nothing else to know them by', waId: 'bla', bsuid: null, phoneE164: '+bla' },
      { name: 'sound', waId: '447700900003', bsuid: BEN, phoneE164: '+447700900003' },
    ]);
  });
});
