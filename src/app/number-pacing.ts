import { MESSAGING_LIMIT_WINDOW_MS, messagingLimitOf, type MessagingLimitUse } from '../core/messaging-limit.js';
import type { Millis } from '../core/time.js';
import type { ConversationStore, Sender } from '../ports/store.js';

interface Budget {
  perDay: number;
  used: number;
  oldestAt: Millis | null;
  /** People counted during this tick, not yet in the store. */
  added: Set<number>;
}

/**
 * Number-wide pacing facts for `decide`: the messaging limit (people reached outside a window per
 * rolling 24 h, from the store, plus this tick's sends) and the last send to each person (the pair
 * rate, remembered by this process for a few seconds; Meta's 131056 covers the rest).
 */
export class NumberPacing {
  private budgets = new Map<number, Promise<Budget | null>>();
  private readonly lastSent = new Map<number, Millis>();

  constructor(private readonly gapMs: Millis) {}

  /** Call at the start of each tick: the limit is read again from the store. */
  newTick(now: Millis): void {
    this.budgets = new Map();
    for (const [contactId, at] of this.lastSent) if (now - at >= this.gapMs) this.lastSent.delete(contactId);
  }

  lastSentTo(contactId: number): Millis | null {
    return this.lastSent.get(contactId) ?? null;
  }

  /** The limit as it stands for a message to `contactId`; null when the number has no known limit. */
  async limitFor(store: ConversationStore, sender: Sender | null, contactId: number, now: Millis): Promise<MessagingLimitUse | null> {
    if (sender === null) return null;
    const budget = await this.budget(store, sender, now);
    if (budget === null) return null;
    const openedAt = budget.added.has(contactId) ? now : await store.conversationOpenedAt(sender.id, contactId);
    const contactCounted = openedAt !== null && openedAt > now - MESSAGING_LIMIT_WINDOW_MS;
    return { perDay: budget.perDay, used: budget.used, contactCounted, nextSlotAt: (budget.oldestAt ?? now) + MESSAGING_LIMIT_WINDOW_MS };
  }

  /** After a send was decided: spaces the next one to this person and, if it counts, uses the limit. */
  async noteSend(store: ConversationStore, sender: Sender | null, contactId: number, counts: boolean, now: Millis): Promise<void> {
    this.lastSent.set(contactId, now);
    if (!counts || sender === null) return;
    const budget = await this.budget(store, sender, now);
    if (budget === null || budget.added.has(contactId)) return;
    budget.added.add(contactId);
    budget.used++;
  }

  private budget(store: ConversationStore, sender: Sender, now: Millis): Promise<Budget | null> {
    let found = this.budgets.get(sender.id);
    if (found === undefined) {
      const perDay = messagingLimitOf(sender.messagingLimitTier);
      found =
        perDay === null
          ? Promise.resolve(null)
          : store
              .conversationWindow(sender.id, now - MESSAGING_LIMIT_WINDOW_MS)
              .then((w) => ({ perDay, used: w.people, oldestAt: w.oldestAt, added: new Set<number>() }));
      this.budgets.set(sender.id, found);
    }
    return found;
  }
}
