import { describe, expect, it } from 'vitest';
import { body, startApi, T0, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Page {
  items: Array<{ id: number; phoneE164: string | null; waId: string | null; bsuid: string | null; tags: string[] }>;
  next: string | null;
}

async function seed(rig: ApiRig): Promise<{ phone: number; user: number; waOnly: number; tagged: number[] }> {
  const { ids } = await rig.store.upsertContacts(
    [
      { phoneE164: '+447911123456', waId: '447911123456', tags: ['vip'] },
      { bsuid: 'US.13491208655302741918', tags: ['vip', 'beta'] },
      { waId: '14155550123', tags: ['beta'] },
      ...Array.from({ length: 5 }, (_, i) => ({
        phoneE164: `+4479111230${i}0`,
        waId: `4479111230${i}0`,
        tags: i % 2 === 0 ? ['vip'] : [],
      })),
    ],
    T0,
  );
  const [phone = -1, user = -1, waOnly = -1, ...rest] = ids;
  return { phone, user, waOnly, tagged: [phone, user, ...rest.filter((_, i) => i % 2 === 0)] };
}

const ids = (p: Page): number[] => p.items.map((c) => c.id);
const get = async (rig: ApiRig, query: string): Promise<Page> => {
  const r = await rig.call('GET', `/api/v1/contacts?${query}`);
  expect(r.status, r.text).toBe(200);
  return body<Page>(r);
};

describe.each(BACKENDS)('REST API: look contacts up ($name)', (backend) => {
  it('finds a contact by phone in any common format, normalised as import does, by wa_id and by business-scoped id', async () => {
    const rig = await startApi(backend);
    const s = await seed(rig);
    for (const phone of ['+447911123456', '+44 7911 123456', '447911123456', '0044 7911 123456']) {
      expect(await get(rig, `phone=${encodeURIComponent(phone)}`), phone).toEqual({
        items: [expect.objectContaining({ id: s.phone })],
        next: null,
      });
    }
    expect(ids(await get(rig, 'phone=07911%20123456&default_country=GB'))).toEqual([s.phone]);
    // Known only by wa_id: a phone number finds it through the wa_id its digits make.
    expect(ids(await get(rig, 'phone=%2B14155550123'))).toEqual([s.waOnly]);
    expect(ids(await get(rig, 'wa_id=14155550123'))).toEqual([s.waOnly]);
    expect(ids(await get(rig, 'bsuid=US.13491208655302741918'))).toEqual([s.user]);
    // Every identifier given must match the same contact; a number nobody has finds nobody.
    expect(ids(await get(rig, 'phone=%2B447911123456&wa_id=447911123456'))).toEqual([s.phone]);
    expect(await get(rig, 'phone=%2B447911123456&bsuid=US.13491208655302741918')).toEqual({ items: [], next: null });
    expect(await get(rig, 'phone=%2B12025550147')).toEqual({ items: [], next: null });
    expect(ids(await get(rig, 'wa_id=447911123456&tag=vip'))).toEqual([s.phone]);
    expect(ids(await get(rig, 'wa_id=447911123456&tag=beta'))).toEqual([]);
  });

  it('refuses a phone that is no number with a 400 naming phone (masked), and bad wa_id and bsuid values', async () => {
    const rig = await startApi(backend);
    await seed(rig);
    const bad = await rig.call('GET', '/api/v1/contacts?phone=%2B44%207911%201234');
    expect(bad).toMatchObject({ status: 400, json: { error: 'invalid_query', issues: [{ path: 'phone' }] } });
    expect(bad.text).not.toContain('79111234');
    expect(await rig.call('GET', '/api/v1/contacts?phone=hello')).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'phone', message: expect.stringMatching(/no digits/) }] },
    });
    expect(await rig.call('GET', '/api/v1/contacts?phone=07911123456')).toMatchObject({
      status: 400,
      json: { issues: [{ path: 'phone', message: expect.stringMatching(/default_country/) }] },
    });
    const many = await rig.call('GET', '/api/v1/contacts?wa_id=%2B44&bsuid=nope&default_country=ZZ&tag=');
    expect(many.status).toBe(400);
    expect((many.json as { issues: Array<{ path: string }> }).issues.map((i) => i.path).sort()).toEqual([
      'bsuid',
      'default_country',
      'tag',
      'wa_id',
    ]);
  });

  it('pages through the contacts holding a tag', async () => {
    const rig = await startApi(backend);
    const s = await seed(rig);
    const p1 = await get(rig, 'tag=vip&limit=2');
    expect(ids(p1)).toEqual(s.tagged.slice(0, 2));
    expect(p1.next).toBe(String(s.tagged[1]));
    const p2 = await get(rig, `tag=vip&limit=10&after=${p1.next ?? ''}`);
    expect(ids(p2)).toEqual(s.tagged.slice(2));
    expect(p2.next).toBeNull();
    expect(await get(rig, 'tag=nobody')).toEqual({ items: [], next: null });
    // Without filters the list is every contact, as before.
    expect((await get(rig, 'limit=100')).items).toHaveLength(8);
  });
});
