import type { Millis } from '../../core/time.js';

/** A sender number's conversations in the messaging limit's rolling window. */
export interface ConversationWindow {
  people: number;
  oldestAt: Millis | null;
}

/**
 * Business-initiated conversations per sender number, counted per business portfolio: Meta's
 * messaging limit is the portfolio's, shared by all its numbers (`Sender.portfolioId`).
 */
export interface ConversationStore {
  /** People the sender's portfolio started conversations with after `since`, each once (the limit's window). */
  conversationWindow(senderId: number, since: Millis): Promise<ConversationWindow>;
  /** The latest start of a conversation with the contact from any number of the sender's portfolio. */
  conversationOpenedAt(senderId: number, contactId: number): Promise<Millis | null>;
  /** Counts a business-initiated conversation; one still inside `windowMs` is not counted again. */
  recordConversation(senderId: number, contactId: number, at: Millis, windowMs: number): Promise<void>;
}
