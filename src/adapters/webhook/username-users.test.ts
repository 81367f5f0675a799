import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWebhook } from './parse-webhook.js';
import { body, messagesChange, status, textMessage } from './test-support.js';
import type { InboundItem, StatusItem, UserIdChangeItem, WebhookItem } from '../../ports/webhook-items.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/bsuid/username-users.json');
const cases = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown>;
const fixture = (name: string): unknown => {
  const found = cases[name];
  if (found === undefined) throw new Error(`no fixture ${name}`);
  return found;
};
const ANA = 'US.13491208655302741918';
const only = <K extends WebhookItem['kind']>(items: WebhookItem[], kind: K) =>
  items.filter((i): i is Extract<WebhookItem, { kind: K }> => i.kind === kind);

describe('parseWebhook: users with a username (business-scoped ids)', () => {
  it('reads every username fixture without a problem', () => {
    for (const [name, b] of Object.entries(cases)) expect({ name, problems: parseWebhook(b).problems }).toEqual({ name, problems: [] });
  });

  it.each(['status_delivered_phone_withheld', 'status_delivered_empty_phone'])('%s: the recipient is the BSUID alone', (name) => {
    const [s] = only(parseWebhook(fixture(name)).items, 'status') as StatusItem[];
    expect(s?.recipient).toEqual({ waId: null, userId: ANA });
  });

  it.each(['text_phone_withheld', 'text_empty_phone'])('%s: the sender is the BSUID alone', (name) => {
    const [m] = only(parseWebhook(fixture(name)).items, 'inbound') as InboundItem[];
    expect(m?.from).toEqual({ waId: null, userId: ANA });
  });

  it('keeps phone and BSUID together when Meta discloses both', () => {
    const [m] = only(parseWebhook(fixture('text_phone_and_bsuid')).items, 'inbound');
    expect(m?.from).toEqual({ waId: '16505551234', userId: ANA });
  });

  it('a failed status sent by BSUID names only the BSUID', () => {
    const [s] = only(parseWebhook(fixture('status_failed_by_bsuid')).items, 'status');
    expect(s?.recipient).toEqual({ waId: null, userId: 'GB.40000000000000000001' });
  });

  it('reads user_id_update as the old and new id, with the number only when given', () => {
    const [withPhone] = only(parseWebhook(fixture('user_id_update')).items, 'user_id_change') as UserIdChangeItem[];
    expect(withPhone).toMatchObject({
      previousUserId: ANA,
      currentUserId: 'US.24817305912873645029',
      waId: '16505550199',
      at: 1767300300_000,
      path: 'entry[0].changes[0].value.user_id_update[0]',
    });
    const [withheld] = only(parseWebhook(fixture('user_id_update_phone_withheld')).items, 'user_id_change');
    expect(withheld).toMatchObject({ currentUserId: 'US.24817305912873645029', waId: null });
  });

  it('reports a user_id_update without its ids at their path', () => {
    const b = body([
      {
        field: 'user_id_update',
        value: { user_id_update: [{ detail: 'x', user_id: { previous: ANA }, timestamp: 1767300300 }] },
      },
    ]);
    const parsed = parseWebhook(b);
    expect(only(parsed.items, 'user_id_change')).toEqual([]);
    expect(parsed.problems.map((p) => p.path)).toContain('entry[0].changes[0].value.user_id_update[0].user_id.current');
  });

  it('passes over a user_changed_user_id notice that names no sender, without a problem: user_id_update carries the change', () => {
    const notice = JSON.parse(JSON.stringify(fixture('system_user_changed_user_id')).replace(`"from_user_id":"${ANA}",`, '')) as unknown;
    expect(JSON.stringify(notice)).not.toContain('from_user_id');
    expect(parseWebhook(notice)).toEqual({ items: [], problems: [] });
  });

  it('reads a user_changed_user_id notice as the notice, then the change from the old id to the new one', () => {
    const { items } = parseWebhook(fixture('system_user_changed_user_id'));
    expect(items.map((i) => i.kind)).toEqual(['inbound', 'user_id_change']);
    const [m] = only(items, 'inbound');
    expect(m?.system).toMatchObject({ type: 'user_changed_user_id', newUserId: 'US.24817305912873645029', newWaId: null });
    expect(m?.from).toEqual({ waId: null, userId: ANA });
    expect(only(items, 'user_id_change')[0]).toMatchObject({
      previousUserId: ANA,
      currentUserId: 'US.24817305912873645029',
      waId: null,
      path: 'entry[0].changes[0].value.messages[0].system',
    });
  });

  it('reads no change from a notice whose sender already has the new id', () => {
    const same = JSON.parse(JSON.stringify(fixture('system_user_changed_user_id')).split(ANA).join('US.24817305912873645029')) as unknown;
    expect(parseWebhook(same).items.map((i) => i.kind)).toEqual(['inbound']);
  });
});

describe('parseWebhook: a phone field that is not digits is never a phone number', () => {
  it.each(['bla', 'US.1234', '+447700900123', ' '])(
    'from %j: no wa_id, one problem at the field, the message kept by its BSUID',
    (from) => {
      const parsed = parseWebhook(
        body([messagesChange({ contacts: [{ user_id: ANA }], messages: [textMessage('wamid.A', 'hi', { from, from_user_id: ANA })] })]),
      );
      const [m] = only(parsed.items, 'inbound');
      expect(m?.from).toEqual({ waId: null, userId: ANA });
      expect(parsed.problems).toEqual([
        { path: 'entry[0].changes[0].value.messages[0].from', message: expect.stringMatching(/expected a phone number as digits/) },
      ]);
      // The value itself may be personal: it is never echoed into the reason.
      expect(JSON.stringify(parsed.problems)).not.toContain(JSON.stringify(from));
    },
  );

  it('drops a message whose only sender field is not digits, saying so', () => {
    const parsed = parseWebhook(body([messagesChange({ messages: [textMessage('wamid.A', 'hi', { from: 'bla' })] })]));
    expect(only(parsed.items, 'inbound')).toEqual([]);
    expect(parsed.problems.map((p) => p.path)).toEqual([
      'entry[0].changes[0].value.messages[0].from',
      'entry[0].changes[0].value.messages[0].from',
    ]);
  });

  it('reads a non-digit recipient_id as no number, with a problem, but keeps a group id', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          statuses: [
            status('wamid.1', 'delivered', '1760000000', { recipient_id: 'US.1234', recipient_user_id: ANA }),
            status('wamid.2', 'delivered', '1760000000', {
              recipient_type: 'group',
              recipient_id: 'Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyOTM4NjUZD',
              recipient_participant_id: '447700900123',
            }),
          ],
        }),
      ]),
    );
    const [a, b] = only(parsed.items, 'status');
    expect(a?.recipient).toEqual({ waId: null, userId: ANA });
    expect(b?.recipient).toEqual({ waId: '447700900123', userId: null });
    expect(b?.groupId).toBe('Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyOTM4NjUZD');
    expect(parsed.problems.map((p) => p.path)).toEqual(['entry[0].changes[0].value.statuses[0].recipient_id']);
  });

  it('reads an empty wa_id on a contact or preference as absent, without a problem', () => {
    const parsed = parseWebhook(
      body([
        {
          field: 'user_preferences',
          value: {
            metadata: { display_phone_number: '15550001111', phone_number_id: '106540352242922' },
            contacts: [{ wa_id: '', user_id: ANA }],
            user_preferences: [{ wa_id: '', user_id: ANA, value: 'stop', category: 'marketing_messages', timestamp: 1760000000 }],
          },
        },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(only(parsed.items, 'user_preference')[0]?.contact).toEqual({ waId: null, userId: ANA });
  });
});
