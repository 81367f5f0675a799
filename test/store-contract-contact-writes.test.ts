import { describe, expect, it } from 'vitest';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: contact changes and tag pages ($name)', (backend) => {
  it('says per input whether it created, changed or only matched a contact', async () => {
    const store = await backend.open();
    const first = await store.upsertContacts([{ waId: '1555', name: 'Ana' }, { bsuid: 'US.1' }], T0);
    expect(first.outcomes).toEqual(['created', 'created']);
    const again = await store.upsertContacts([{ waId: '1555', name: 'Ana' }, { bsuid: 'US.1', tags: ['vip'] }, { waId: '1666' }], T0 + 1);
    expect(again).toMatchObject({ created: 1, updated: 2, outcomes: ['unchanged', 'updated', 'created'] });
  });

  it('applies a change: name set or cleared, attributes merged and removed, tags added then removed', async () => {
    const store = await backend.open();
    const [id = -1] = (
      await store.upsertContacts([{ waId: '1555', name: 'Ana', attributes: { city: 'Leeds', plan: 'gold' }, tags: ['a', 'b'] }], T0)
    ).ids;
    const changed = await store.updateContact(
      id,
      { name: 'Ana B', attributes: { city: 'York', plan: null, n: 2 }, tagsAdd: ['c', 'a'], tagsRemove: ['b', 'c'] },
      T0 + 5,
    );
    expect(changed).toMatchObject({
      changed: true,
      contact: { id, name: 'Ana B', attributes: { city: 'York', n: 2 }, tags: ['a'], updatedAt: T0 + 5 },
    });
    expect(await store.getContact(id)).toEqual(changed?.contact);
    const cleared = await store.updateContact(id, { name: null }, T0 + 6);
    expect(cleared?.contact.name).toBeNull();
    // Nothing differs: nothing is written, not even the time.
    const same = await store.updateContact(id, { attributes: { city: 'York', gone: null }, tagsAdd: ['a'], tagsRemove: ['zz'] }, T0 + 9);
    expect(same).toMatchObject({ changed: false, contact: { updatedAt: T0 + 6 } });
    expect((await store.getContact(id))?.updatedAt).toBe(T0 + 6);
    expect(await store.updateContact(id + 1000, { name: 'x' }, T0)).toBeNull();
  });

  it('keeps every one of several changes made at once to one contact', async () => {
    const store = await backend.open();
    const [id = -1] = (await store.upsertContacts([{ waId: '1555' }], T0)).ids;
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.updateContact(id, { attributes: { [`k${i}`]: i } }, T0 + i)));
    expect(Object.keys((await store.getContact(id))?.attributes ?? {}).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
  });

  it('pages through the contacts holding a tag, each call looking at a bounded window', async () => {
    const store = await backend.open();
    const { ids } = await store.upsertContacts(
      Array.from({ length: 10 }, (_, i) => ({ waId: `1555${i}`, tags: i % 3 === 0 ? ['vip', 'x'] : ['x'] })),
      T0,
    );
    const vip = ids.filter((_, i) => i % 3 === 0); // 0, 3, 6, 9
    const p1 = await store.listContactsWithTag('vip', 0, 2, 100);
    expect(p1.contacts.map((c) => c.id)).toEqual(vip.slice(0, 2));
    expect(p1.next).toBe(vip[1]);
    const p2 = await store.listContactsWithTag('vip', p1.next ?? 0, 2, 100);
    expect(p2).toMatchObject({ next: null });
    expect(p2.contacts.map((c) => c.id)).toEqual(vip.slice(2));
    // A window of 2 contacts: fewer matches than the limit, and a cursor to go on from.
    const narrow = await store.listContactsWithTag('vip', 0, 5, 2);
    expect(narrow.contacts.map((c) => c.id)).toEqual([vip[0]]);
    expect(narrow.next).toBe(ids[1]);
    expect(await store.listContactsWithTag('nobody', 0, 5, 100)).toEqual({ contacts: [], next: null });
    // A tag is matched whole, not as part of another.
    expect((await store.listContactsWithTag('vi', 0, 5, 100)).contacts).toEqual([]);
  });
});
