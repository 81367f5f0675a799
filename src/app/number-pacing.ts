import { MESSAGING_LIMIT_WINDOW_MS, messagingLimitOf, portfolioKeyOf, type MessagingLimitUse } from '../core/messaging-limit.js';
import type { Millis } from '../core/time.js';
import type { ConversationStore, Sender } from '../ports/store.js';

interface Stored {
  perDay: number;
  used: number;
  oldestAt: Millis | null;
}

/**
 * People this process has decided to start a conversation with, per business portfolio, whose send
 * is not yet recorded in the store: shared by every number's dispatcher in the process, so numbers
 * of one portfolio sending side by side never spend the same places of its messaging limit twice.
 */
export class PortfolioLedger {
  private readonly pending = new Map<string, Map<number, number>>();

  add(key: string, contactId: number): void {
    const people = this.pending.get(key) ?? new Map<number, number>();
    people.set(contactId, (people.get(contactId) ?? 0) + 1);
    this.pending.set(key, people);
  }

  /** The send is recorded (or failed): the store counts it from now on, if it counts at all. */
  remove(key: string, contactId: number): void {
    const people = this.pending.get(key);
    const n = people?.get(contactId);
    if (people === undefined || n === undefined) return;
    if (n > 1) people.set(contactId, n - 1);
    else people.delete(contactId);
    if (people.size === 0) this.pending.delete(key);
  }

  has(key: string, contactId: number): boolean {
    return this.pending.get(key)?.has(contactId) ?? false;
  }

  size(key: string): number {
    return this.pending.get(key)?.size ?? 0;
  }
}

/**
 * Pacing facts for `decide`: the messaging limit (people reached outside a window per rolling 24 h
 * across the sender's whole portfolio, from the store, plus the sends this process has under way)
 * and the last send to each person from this number (the pair rate, remembered by this process for a
 * few seconds; Meta's 131056 covers the rest).
 */
export class NumberPacing {
  private stored = new Map<string, Promise<Stored | null>>();
  private readonly lastSent = new Map<number, Millis>();

  constructor(
    private readonly gapMs: Millis,
    readonly ledger: PortfolioLedger = new PortfolioLedger(),
  ) {}

  /** Call at the start of each tick: the limit is read again from the store. */
  newTick(now: Millis): void {
    this.stored = new Map();
    for (const [contactId, at] of this.lastSent) if (now - at >= this.gapMs) this.lastSent.delete(contactId);
  }

  lastSentTo(contactId: number): Millis | null {
    return this.lastSent.get(contactId) ?? null;
  }

  /** The limit as it stands for a message to `contactId`; null when the number has no known limit. */
  async limitFor(store: ConversationStore, sender: Sender | null, contactId: number, now: Millis): Promise<MessagingLimitUse | null> {
    if (sender === null) return null;
    const stored = await this.read(store, sender, now);
    if (stored === null) return null;
    const key = portfolioKeyOf(sender);
    const pending = this.ledger.has(key, contactId);
    const openedAt = pending ? now : await store.conversationOpenedAt(sender.id, contactId);
    const contactCounted = openedAt !== null && openedAt > now - MESSAGING_LIMIT_WINDOW_MS;
    return {
      perDay: stored.perDay,
      used: stored.used + this.ledger.size(key),
      contactCounted,
      nextSlotAt: (stored.oldestAt ?? now) + MESSAGING_LIMIT_WINDOW_MS,
    };
  }

  /**
   * After a send was decided: spaces the next one to this person and, if it counts, holds its place
   * in the portfolio's limit until `settled` (returns the portfolio key to settle, or null).
   */
  noteSend(sender: Sender | null, contactId: number, counts: boolean, now: Millis): string | null {
    this.lastSent.set(contactId, now);
    if (!counts || sender === null) return null;
    const key = portfolioKeyOf(sender);
    this.ledger.add(key, contactId);
    return key;
  }

  /** The send's answer is recorded: the store holds its conversation, if Meta accepted it. */
  settled(key: string, contactId: number): void {
    this.ledger.remove(key, contactId);
  }

  private read(store: ConversationStore, sender: Sender, now: Millis): Promise<Stored | null> {
    const key = portfolioKeyOf(sender);
    let found = this.stored.get(key);
    if (found === undefined) {
      const perDay = messagingLimitOf(sender.messagingLimitTier);
      found =
        perDay === null
          ? Promise.resolve(null)
          : store
              .conversationWindow(sender.id, now - MESSAGING_LIMIT_WINDOW_MS)
              .then((w) => ({ perDay, used: w.people, oldestAt: w.oldestAt }));
      this.stored.set(key, found);
    }
    return found;
  }
}
