import { describe, expect, it } from 'vitest';
import { explainContact } from './explain-contact.js';
import { DEFAULT_POLICY } from './policy.js';
import { consentingContact, ev, replay, T0 } from './test-support.js';
import { HOUR } from './time.js';

describe('explainContact', () => {
  it('answers per category with the decision and the events behind it', () => {
    const s = replay([ev.failed(T0, 131049), ev.preference(T0 + HOUR, 'stop')], DEFAULT_POLICY, consentingContact());
    const byCategory = Object.fromEntries(explainContact(s, T0 + 2 * HOUR, DEFAULT_POLICY, 'IN').map((e) => [e.category, e]));
    expect(byCategory.marketing?.decision).toMatchObject({ kind: 'skip', reason: 'marketing_stopped' });
    expect(byCategory.marketing?.causes.map((c) => c.detail)).toEqual(['granted via import', '131049', 'user_preferences:stop']);
    expect(byCategory.utility?.decision.kind).toBe('send');
    expect(byCategory.utility?.causes.map((c) => c.type)).toEqual(['consent']);
    expect(byCategory.service?.decision).toMatchObject({ kind: 'skip', reason: 'window_closed' });
    expect(byCategory.authentication?.decision.kind).toBe('send');
  });

  it('answers for a contact known only by business-scoped id: authentication needs the phone number', () => {
    const byCategory = Object.fromEntries(
      explainContact(consentingContact(), T0, DEFAULT_POLICY, null, 'user_id').map((e) => [e.category, e.decision]),
    );
    expect(byCategory.authentication).toMatchObject({ kind: 'skip', reason: 'needs_phone_number' });
    expect(byCategory.utility?.kind).toBe('send');
  });
});
