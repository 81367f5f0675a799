import { describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe.each(BACKENDS)('Store contract: conversations counted by the messaging limit ($name)', (backend) => {
  it('counts each person once per rolling window and starts a new window only after it ended', async () => {
    const store = await backend.open();
    const seed = await seedCampaign(store, T0, 3);
    const [a, b, c] = seed.contactIds;
    if (a === undefined || b === undefined || c === undefined) throw new Error('three contacts expected');
    expect(await store.conversationWindow(seed.senderId, T0 - DAY)).toEqual({ people: 0, oldestAt: null });
    expect(await store.conversationOpenedAt(seed.senderId, a)).toBeNull();

    await store.recordConversation(seed.senderId, a, T0, DAY);
    await store.recordConversation(seed.senderId, b, T0 + HOUR, DAY);
    await store.recordConversation(seed.senderId, a, T0 + 2 * HOUR, DAY); // inside a's window: unchanged
    expect(await store.conversationOpenedAt(seed.senderId, a)).toBe(T0);
    expect(await store.conversationWindow(seed.senderId, T0 + 2 * HOUR - DAY)).toEqual({ people: 2, oldestAt: T0 });

    // A day later a's window has ended: a new message starts a new one; b's is still counted.
    await store.recordConversation(seed.senderId, a, T0 + DAY + 1, DAY);
    await store.recordConversation(seed.senderId, c, T0 + DAY + 1, DAY);
    expect(await store.conversationOpenedAt(seed.senderId, a)).toBe(T0 + DAY + 1);
    expect(await store.conversationWindow(seed.senderId, T0 + 1)).toEqual({ people: 3, oldestAt: T0 + HOUR });
    expect(await store.conversationWindow(seed.senderId, T0 + HOUR)).toEqual({ people: 2, oldestAt: T0 + DAY + 1 });
  });
});
