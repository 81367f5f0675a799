import { describe, expect, it } from 'vitest';
import { body, readRows, startApi, type ApiRig } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface RowResult {
  index?: number;
  line?: number;
  status: 'created' | 'updated' | 'unchanged' | 'error';
  contactId: number | null;
  errors: Array<{ field: string | null; message: string }>;
}
interface Bulk {
  totals: { rows: number; created: number; updated: number; unchanged: number; error: number };
  results: RowResult[];
}

const NDJSON = { 'content-type': 'application/x-ndjson' };
const phone = (i: number): string => `+4479111${String(i).padStart(5, '0')}`;

async function bulk(rig: ApiRig, rows: unknown): Promise<Bulk> {
  const r = await rig.call('POST', '/api/v1/contacts/bulk', { body: rows });
  expect(r.status, r.text.slice(0, 500)).toBe(200);
  return body<Bulk>(r);
}

async function countContacts(rig: ApiRig): Promise<number> {
  const [row] = await readRows(rig.place, 'SELECT count(*) AS n FROM contacts');
  return Number(row?.['n']);
}

describe.each(BACKENDS)('REST API: bulk contact upsert ($name)', (backend) => {
  it('writes the good rows of a mixed JSON array and reports each bad one by index and field, writing nothing of it', async () => {
    const rig = await startApi(backend);
    const [taken = -1] = (await rig.store.upsertContacts([{ bsuid: 'GB.taken1' }], rig.clock.now())).ids;
    const other = (await rig.store.upsertContacts([{ phoneE164: '+447911100099', waId: '447911100099' }], rig.clock.now())).ids[0];
    const r = await bulk(rig, [
      {
        phone: '+44 7911 100001',
        name: 'A',
        tags: ['vip'],
        consent: { marketing: { status: 'granted', source: 'crm', evidence: 'form 9' } },
      },
      { phone: '+44 7911 1234' },
      { phone: '+447911100002', nickname: 'x', consent: { marketing: { status: 'maybe', source: 'crm' } } },
      'not a contact',
      { name: 'no identifier' },
      { phone: '+447911100099', bsuid: 'GB.taken1', consent: { marketing: { status: 'granted', source: 'crm' } } },
      { bsuid: 'US.13491208655302741918', attributes: { plan: 'gold' } },
      { phone: '+447911100001', tags: ['second'] },
    ]);
    expect(r.totals).toEqual({ rows: 8, created: 2, updated: 1, unchanged: 0, error: 5 });
    expect(r.results.map((x) => [x.index, x.status])).toEqual([
      [0, 'created'],
      [1, 'error'],
      [2, 'error'],
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'created'],
      [7, 'updated'],
    ]);
    const errorsOf = (i: number) => r.results[i]?.errors ?? [];
    expect(errorsOf(1)).toEqual([{ field: 'phone', message: expect.stringMatching(/^\+44•+234 /) }]);
    expect(
      errorsOf(2)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['consent.marketing.status', 'nickname']);
    expect(errorsOf(3)).toEqual([{ field: null, message: expect.stringMatching(/expected object/) }]);
    expect(errorsOf(4)).toEqual([{ field: null, message: expect.stringMatching(/phone, waId or bsuid/) }]);
    expect(
      errorsOf(5)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['bsuid', 'phone', 'waId']);
    expect(errorsOf(5).find((e) => e.field === 'bsuid')?.message).toContain(`contact ${taken}`);
    expect(r.results[7]?.contactId).toBe(r.results[0]?.contactId);
    expect(r.results[0]?.errors).toEqual([]);
    // Written: the good rows only; the refused row left both contacts it named as they were.
    expect(await countContacts(rig)).toBe(4);
    expect(await rig.store.consentHistory(taken)).toEqual([]);
    expect(await rig.store.consentHistory(other ?? -1)).toEqual([]);
    expect(await rig.store.getContact(other ?? -1)).toMatchObject({ bsuid: null });
    const a = await rig.call('GET', `/api/v1/contacts/${r.results[0]?.contactId}`);
    expect(a.json).toMatchObject({
      tags: ['vip', 'second'],
      consent: { marketing: { status: 'granted', source: 'crm', evidence: 'form 9' } },
    });
    expect(JSON.stringify(r)).not.toContain('79111234');
  });

  it('answers unchanged for rows that state what is stored, and updated for the ones that change it', async () => {
    const rig = await startApi(backend);
    const rows = Array.from({ length: 30 }, (_, i) => ({
      phone: phone(i),
      tags: ['t'],
      consent: { utility: { status: 'granted', source: 'crm' } },
    }));
    expect((await bulk(rig, rows)).totals).toMatchObject({ created: 30, error: 0 });
    const again = await bulk(rig, [...rows.slice(0, 29), { ...rows[29], name: 'Changed' }]);
    expect(again.totals).toEqual({ rows: 30, created: 0, updated: 1, unchanged: 29, error: 0 });
    expect(again.results[29]).toMatchObject({ status: 'updated' });
    const [history] = await readRows(rig.place, 'SELECT count(*) AS n FROM consent_events');
    expect(Number(history?.['n'])).toBe(30);
  });

  it('reads NDJSON, reporting a line that is no contact by its line number, blank lines counted', async () => {
    const rig = await startApi(backend);
    const text = [
      JSON.stringify({ phone: phone(1) }),
      '',
      JSON.stringify({ phone: '+44 7911 1234' }),
      JSON.stringify({ phone: phone(3), colour: 'red' }),
      '   ',
      JSON.stringify({ waId: '14155550123', consent: { service: { status: 'granted', source: 'chat' } } }),
      '[1, 2]',
      '',
    ].join('\r\n');
    const r = await rig.call('POST', '/api/v1/contacts/bulk', { raw: text, headers: NDJSON });
    expect(r.status, r.text).toBe(200);
    const b = body<Bulk>(r);
    expect(b.totals).toEqual({ rows: 5, created: 2, updated: 0, unchanged: 0, error: 3 });
    expect(b.results.map((x) => [x.line, x.status])).toEqual([
      [1, 'created'],
      [3, 'error'],
      [4, 'error'],
      [6, 'created'],
      [7, 'error'],
    ]);
    expect(b.results[1]?.errors).toEqual([{ field: 'phone', message: expect.stringMatching(/^\+44•+234 /) }]);
    expect(b.results[2]?.errors).toEqual([{ field: 'colour', message: expect.stringMatching(/unknown field/) }]);
    expect(b.results[4]?.errors).toEqual([{ field: null, message: expect.stringMatching(/expected object/) }]);
    expect(b.results.every((x) => x.index === undefined)).toBe(true);
    expect(await countContacts(rig)).toBe(2);
  });

  it('refuses NDJSON with a line that is not JSON as a whole, naming the line, as a broken JSON array is refused', async () => {
    const rig = await startApi(backend);
    const text = [JSON.stringify({ phone: phone(1) }), '', '{"phone": "+447911100002",', JSON.stringify({ phone: phone(3) })].join('\n');
    const r = await rig.call('POST', '/api/v1/contacts/bulk', { raw: text, headers: NDJSON });
    expect(r).toMatchObject({ status: 400, json: { error: 'invalid_ndjson', issues: [{ path: '(line)', line: 3 }] } });
    expect(await countContacts(rig)).toBe(0);
    const array = await rig.call('POST', '/api/v1/contacts/bulk', { raw: `[${JSON.stringify({ phone: phone(1) })},` });
    expect(array).toMatchObject({ status: 400, json: { error: 'invalid_json' } });
    expect(await countContacts(rig)).toBe(0);
  });

  it('refuses a whole request that is no list of rows, too many rows, too large a body or another content type', async () => {
    const rig = await startApi(backend);
    const refusal = async (o: Parameters<ApiRig['call']>[2]) => {
      const r = await rig.call('POST', '/api/v1/contacts/bulk', o);
      return { status: r.status, json: r.json };
    };
    expect(await refusal({ body: { phone: phone(1) } })).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: '(root)' }] },
    });
    expect(await refusal({ body: [] })).toMatchObject({
      status: 400,
      json: { issues: [{ path: '(root)', message: expect.stringMatching(/no rows/) }] },
    });
    expect(await refusal({ raw: '\n\n', headers: NDJSON })).toMatchObject({
      status: 400,
      json: { issues: [{ message: expect.stringMatching(/no rows/) }] },
    });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ phone: phone(i) }));
    expect(await refusal({ body: tooMany })).toMatchObject({
      status: 400,
      json: { error: 'invalid_body', issues: [{ path: '(root)', message: expect.stringMatching(/at most 10000 rows/) }] },
    });
    const huge = JSON.stringify([{ phone: phone(1), attributes: { blob: 'x'.repeat(17 * 1024 * 1024) } }]);
    expect(await refusal({ raw: huge })).toMatchObject({ status: 413, json: { error: 'body_too_large' } });
    expect(await refusal({ raw: 'phone\n+447911100001\n', headers: { 'content-type': 'text/csv' } })).toMatchObject({
      status: 415,
      json: { error: 'unsupported_media_type' },
    });
    expect(await refusal({ raw: 'x', headers: { 'content-type': 'text/plain' } })).toMatchObject({
      status: 415,
      json: { error: 'unsupported_media_type', message: expect.stringContaining('application/x-ndjson') },
    });
    expect(await refusal({ body: [{ phone: phone(1) }], token: null })).toMatchObject({ status: 401 });
    expect(await refusal({ body: [{ phone: '0791110001' }] })).toMatchObject({ status: 200 });
    expect(await countContacts(rig)).toBe(0);
  });

  it('upserts 10,000 rows in one request over a real HTTP connection, as JSON and again as NDJSON', async () => {
    const rig = await startApi(backend, { rateLimit: null });
    const origin = await rig.listen();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      phone: phone(i),
      name: `Person ${i}`,
      tags: [`t${i % 7}`],
      attributes: { city: `City ${i % 40}` },
      consent: { marketing: { status: i % 2 ? 'granted' : 'revoked', source: 'crm-sync', evidence: `row ${i}` } },
    }));
    rows[4_321] = { ...rows[4_321]!, phone: 'not a phone' };
    const post = async (text: string, type: string): Promise<Bulk> => {
      const res = await fetch(`${origin}/api/v1/contacts/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rig.token}`, 'content-type': type },
        body: text,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Bulk;
    };
    const first = await post(JSON.stringify(rows), 'application/json');
    expect(first.totals).toEqual({ rows: 10_000, created: 9_999, updated: 0, unchanged: 0, error: 1 });
    expect(first.results[4_321]).toMatchObject({ index: 4_321, status: 'error', errors: [{ field: 'phone' }] });
    expect(new Set(first.results.map((x) => x.contactId)).size).toBe(10_000); // 9,999 ids and one null
    expect(await countContacts(rig)).toBe(9_999);
    const changed = rows.map((row, i) => (i < 100 ? { ...row, tags: ['changed'] } : row));
    const second = await post(changed.map((row) => JSON.stringify(row)).join('\n'), 'application/x-ndjson');
    expect(second.totals).toEqual({ rows: 10_000, created: 0, updated: 100, unchanged: 9_899, error: 1 });
    expect(second.results[4_321]).toMatchObject({ line: 4_322, status: 'error' });
    const [history] = await readRows(rig.place, 'SELECT count(*) AS n FROM consent_events');
    expect(Number(history?.['n'])).toBe(9_999);
  }, 120_000);
});
