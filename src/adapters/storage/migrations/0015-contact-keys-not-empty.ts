import type { Migration } from './migration.js';

// Frozen: once released, this file never changes and imports nothing from the application.
// Webhooks of users hidden behind a username once carried `wa_id: ""` (or a non-digit value), which
// was stored as a phone number: `wa_id` "" and `phone_e164` "+", so several such users met in one
// contact. Those values are no number at all; they are cleared wherever the contact keeps another
// identifier (its business-scoped id, or a real number), and left where they are its only one.

function repair(validWaId: (c: string) => string, validPhone: (c: string) => string): string {
  return `UPDATE contacts SET wa_id = NULL
WHERE wa_id IS NOT NULL AND NOT (${validWaId('wa_id')})
  AND (bsuid IS NOT NULL OR (phone_e164 IS NOT NULL AND ${validPhone('phone_e164')}));
UPDATE contacts SET phone_e164 = NULL
WHERE phone_e164 IS NOT NULL AND NOT (${validPhone('phone_e164')})
  AND (bsuid IS NOT NULL OR (wa_id IS NOT NULL AND ${validWaId('wa_id')}));`;
}

export const contactKeysNotEmpty: Migration = {
  version: 15,
  name: 'no empty or non-digit phone numbers on contacts',
  sqlite: repair(
    (c) => `${c} <> '' AND ${c} NOT GLOB '*[^0-9]*'`,
    (c) => `${c} GLOB '+[0-9]*' AND substr(${c}, 2) NOT GLOB '*[^0-9]*'`,
  ),
  postgres: repair(
    (c) => `${c} ~ '^[0-9]+$'`,
    (c) => `${c} ~ '^[+][0-9]+$'`,
  ),
};
