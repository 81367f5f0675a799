import type { ErrorEntry } from '../error-entry.js';
import { MARKETING_AND_RECIPIENT } from './marketing-and-recipient.js';

/** Every code Pacer knows, one entry per code (or per range), in no particular order. */
export const ERROR_CATALOGUE: readonly ErrorEntry[] = Object.freeze([
  ...MARKETING_AND_RECIPIENT,
]);
