import { describe, expect, it } from 'vitest';
import { BACKENDS } from './store-backends.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: webhook signal claims ($name)', (backend) => {
  it('grants a signal once, refuses older ones, and orders each subject on its own', async () => {
    const store = await backend.open();
    const claim = (subject: string, at: number, fingerprint: string) => store.claimSignal({ subject, at, fingerprint }, T0);
    expect(await claim('template_status promo en', T0, 'UNPAUSED')).toBe(true);
    expect(await claim('template_status promo en', T0, 'UNPAUSED')).toBe(false); // redelivered
    expect(await claim('template_status promo en', T0 - 1, 'PAUSED')).toBe(false); // older
    expect(await claim('template_status promo en', T0, 'PAUSED')).toBe(true); // same second, says something else
    expect(await claim('template_status other en', T0 - 1, 'PAUSED')).toBe(true); // another subject
    expect(await claim('template_status promo en', T0 + 1, 'UNPAUSED')).toBe(true);
    expect(await claim('template_status promo en', T0, 'PAUSED')).toBe(false); // older now, whatever it says
  });

  it('leaves a claim made in a transaction that rolled back unclaimed', async () => {
    const store = await backend.open();
    await expect(
      store.transaction(async (tx) => {
        expect(await tx.claimSignal({ subject: 's', at: T0, fingerprint: 'f' }, T0)).toBe(true);
        throw new Error('the payload failed');
      }),
    ).rejects.toThrow('the payload failed');
    expect(await store.claimSignal({ subject: 's', at: T0, fingerprint: 'f' }, T0)).toBe(true);
  });
});
