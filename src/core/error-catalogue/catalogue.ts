import type { ErrorEntry } from '../error-entry.js';
import { ACCOUNT } from './account.js';
import { AUTH } from './auth.js';
import { LIMITS } from './limits.js';
import { MARKETING_AND_RECIPIENT } from './marketing-and-recipient.js';
import { MARKETING_MESSAGES_API } from './marketing-messages-api.js';
import { ON_PREMISES } from './on-premises.js';
import { RECIPIENT_ACCESS } from './recipient-access.js';
import { REGISTRATION } from './registration.js';
import { REQUESTS } from './requests.js';
import { TEMPLATES } from './templates.js';
import { TRANSIENT } from './transient.js';

/** Every code Pacer knows, one entry per code (or per range), grouped by family. */
export const ERROR_CATALOGUE: readonly ErrorEntry[] = Object.freeze([
  ...MARKETING_AND_RECIPIENT,
  ...RECIPIENT_ACCESS,
  ...LIMITS,
  ...TRANSIENT,
  ...TEMPLATES,
  ...ACCOUNT,
  ...REGISTRATION,
  ...AUTH,
  ...REQUESTS,
  ...MARKETING_MESSAGES_API,
  ...ON_PREMISES,
]);
