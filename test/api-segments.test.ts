import { describe, expect, it } from 'vitest';
import { importContactRecords } from '../src/app/import-contact-records.js';
import { previewSegment } from '../src/app/segment-preview.js';
import { DEFAULT_POLICY } from '../src/core/policy.js';
import { HOUR } from '../src/core/time.js';
import { body, startApi, T0 } from './api-harness.js';
import { BACKENDS } from './store-backends.js';

interface Preview {
  contacts: number;
  matched: number;
  matchedNow: Record<string, number>;
  sample: Array<{ contactId: number; to: string; tags: string[] }>;
}

describe.each(BACKENDS)('REST API: segment preview ($name)', (backend) => {
  it('counts what a segment selects now, as pacer segment preview does, with the first matches by id', async () => {
    const rig = await startApi(backend);
    const { ids } = await importContactRecords(
      rig.store,
      Array.from({ length: 9 }, (_, i) => ({
        phoneE164: `+4479111235${String(i).padStart(2, '0')}`,
        name: null,
        tags: i % 3 === 0 ? ['vip', 'gb'] : ['gb'],
        attributes: { tier: i < 4 ? 'gold' : 'silver' },
        consent: { marketing: i !== 3 },
      })),
      'test',
      DEFAULT_POLICY,
      T0 - HOUR,
    );
    const vip = await rig.call('POST', '/api/v1/segments/preview', { body: { segment: { tagsAll: ['vip'] } } });
    expect(vip.status, vip.text).toBe(200);
    const p = body<Preview>(vip);
    expect(p).toMatchObject({ contacts: 9, matched: 3, matchedNow: { cooling_off: 0, held: 0, stopped: 0, unreachable: 0 } });
    expect(p.sample.map((s) => s.contactId)).toEqual([ids[0], ids[3], ids[6]]);
    expect(p.sample.every((s) => /^\+44•+\d{3}$/.test(s.to) && s.tags.includes('vip'))).toBe(true);
    expect(vip.text).not.toContain('791112350');
    // The same counts as the use case the CLI prints.
    const { contacts, matched, matchedNow } = await previewSegment(rig.store, { tagsAll: ['vip'] }, T0);
    expect({ contacts: p.contacts, matched: p.matched, matchedNow: p.matchedNow }).toEqual({ contacts, matched, matchedNow });
    const gold = await rig.call('POST', '/api/v1/segments/preview', {
      body: { segment: { tagsAll: ['gb'], attributes: { tier: 'gold' }, consent: ['marketing'] }, sample: 2 },
    });
    expect(gold.json).toMatchObject({ matched: 3, sample: [{ contactId: ids[0] }, { contactId: ids[1] }] });
    expect(
      body<Preview>(await rig.call('POST', '/api/v1/segments/preview', { body: { segment: { tagsAll: ['gb'] }, sample: 0 } })),
    ).toMatchObject({ matched: 9, sample: [] });
    expect(
      body<Preview>(await rig.call('POST', '/api/v1/segments/preview', { body: { segment: { tagsAny: ['none'] }, sample: 20 } })),
    ).toMatchObject({ matched: 0, sample: [] });
  });

  it('names the field at fault', async () => {
    const rig = await startApi(backend);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['segment']],
      [{ segment: { tag: ['vip'] } }, ['segment.tag']],
      [{ segment: { tagsAll: 'vip' } }, ['segment.tagsAll']],
      [{ segment: { exclude: ['asleep'] } }, ['segment.exclude.0']],
      [{ segment: { engagedWithinDays: 0 } }, ['segment.engagedWithinDays']],
      [{ segment: {}, sample: 21 }, ['sample']],
      [{ segment: {}, limit: 5 }, ['limit']],
    ];
    for (const [payload, paths] of cases) {
      const r = await rig.call('POST', '/api/v1/segments/preview', { body: payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(
        body<{ issues: Array<{ path: string }> }>(r).issues.map((i) => i.path),
        JSON.stringify(payload),
      ).toEqual(paths);
    }
  });
});
