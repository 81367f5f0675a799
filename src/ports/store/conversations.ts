import type { Millis } from '../../core/time.js';

/** A sender number's conversations in the messaging limit's rolling window. */
export interface ConversationWindow {
  people: number;
  oldestAt: Millis | null;
}

/** Business-initiated conversations per sender number: what its messaging limit counts. */
export interface ConversationStore {
  /** People the number started conversations with after `since` (the messaging limit's window). */
  conversationWindow(senderId: number, since: Millis): Promise<ConversationWindow>;
  conversationOpenedAt(senderId: number, contactId: number): Promise<Millis | null>;
  /** Counts a business-initiated conversation; one still inside `windowMs` is not counted again. */
  recordConversation(senderId: number, contactId: number, at: Millis, windowMs: number): Promise<void>;
}
