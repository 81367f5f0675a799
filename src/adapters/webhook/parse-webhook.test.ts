import { describe, expect, it } from 'vitest';
import { parseWebhook } from './parse-webhook.js';
import { body, messagesChange, PNID, status, textMessage, WABA } from './test-support.js';
import type { StatusItem, WebhookItem } from '../../ports/webhook-items.js';

const kinds = (items: WebhookItem[]) => items.map((i) => i.kind);
const statuses = (items: WebhookItem[]) => items.filter((i): i is StatusItem => i.kind === 'status');

describe('parseWebhook: envelope', () => {
  it.each([
    ['null', null],
    ['a string', 'hello'],
    ['an array', [1, 2]],
    ['a number', 42],
  ])('gives one root problem for %s', (_label, input) => {
    const parsed = parseWebhook(input);
    expect(parsed.items).toEqual([]);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.path).toBe('$');
    expect(parsed.problems[0]?.message).toMatch(/expected a JSON object/);
  });

  it('gives one problem for a body from another product', () => {
    const parsed = parseWebhook({ object: 'page', entry: [] });
    expect(parsed).toEqual({
      items: [],
      problems: [{ path: 'object', message: 'expected object "whatsapp_business_account", got "page"' }],
    });
  });

  it('reports an entry list that is not an array', () => {
    expect(parseWebhook({ object: 'whatsapp_business_account', entry: {} }).problems).toEqual([
      { path: 'entry', message: 'expected an array of entries, got object' },
    ]);
  });

  it('reads every entry, change and status in one body, in order, with their sources', () => {
    const parsed = parseWebhook(
      body(
        [
          messagesChange({
            statuses: [status('wamid.1', 'sent'), status('wamid.2', 'delivered', '1760000010'), status('wamid.3', 'read', 1760000020)],
          }),
          messagesChange({
            contacts: [{ wa_id: '447700900123' }],
            messages: [textMessage('wamid.in1', 'hello'), textMessage('wamid.in2', 'again')],
          }),
        ],
        [messagesChange({ statuses: [status('wamid.4', 'failed', '1760000030', { errors: [{ code: 131049 }] })] })],
      ),
    );
    expect(parsed.problems).toEqual([]);
    expect(kinds(parsed.items)).toEqual(['status', 'status', 'status', 'inbound', 'inbound', 'status']);
    expect(statuses(parsed.items).map((s) => [s.messageId, s.status, s.at, s.source.wabaId, s.path])).toEqual([
      ['wamid.1', 'sent', 1760000000000, `${WABA}0`, 'entry[0].changes[0].value.statuses[0]'],
      ['wamid.2', 'delivered', 1760000010000, `${WABA}0`, 'entry[0].changes[0].value.statuses[1]'],
      ['wamid.3', 'read', 1760000020000, `${WABA}0`, 'entry[0].changes[0].value.statuses[2]'],
      ['wamid.4', 'failed', 1760000030000, `${WABA}1`, 'entry[1].changes[0].value.statuses[0]'],
    ]);
    expect(parsed.items.every((i) => i.source.phoneNumberId === PNID)).toBe(true);
  });
});

describe('parseWebhook: malformed pieces', () => {
  it('drops a status with a bad timestamp or a missing id, naming the exact path, and keeps its siblings', () => {
    const parsed = parseWebhook(
      body(
        [{ field: 'account_update', value: { event: 'ACCOUNT_DELETED' } }],
        [
          { field: 'account_update', value: { event: 'PARTNER_ADDED' } },
          messagesChange({
            statuses: [
              status('wamid.ok1', 'sent'),
              { status: 'sent', timestamp: '1760000000' },
              status('wamid.bad', 'delivered', 'yesterday'),
              status('wamid.ok2', 'read'),
            ],
          }),
        ],
      ),
    );
    expect(statuses(parsed.items).map((s) => s.messageId)).toEqual(['wamid.ok1', 'wamid.ok2']);
    expect(statuses(parsed.items).map((s) => s.path)).toEqual([
      'entry[1].changes[1].value.statuses[0]',
      'entry[1].changes[1].value.statuses[3]',
    ]);
    expect(parsed.problems).toEqual([
      { path: 'entry[1].changes[1].value.statuses[1].id', message: 'missing' },
      { path: 'entry[1].changes[1].value.statuses[2].timestamp', message: 'expected Unix seconds (an integer or a string of digits)' },
    ]);
    expect(kinds(parsed.items)).toEqual(['account_update', 'account_update', 'status', 'status']);
  });

  it('keeps a status whose optional parts are wrong, without those parts', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          statuses: [
            status('wamid.1', 'failed', '1760000000', {
              pricing: { billable: 'yes', category: 'marketing' },
              errors: [{ code: 'oops' }, { code: 131049, title: 'cap' }],
              conversation: 'not an object',
            }),
          ],
        }),
      ]),
    );
    const [item] = statuses(parsed.items);
    expect(item?.pricing).toEqual({ billable: null, model: null, type: null, category: 'marketing' });
    expect(item?.errors.map((e) => e.code)).toEqual([131049]);
    expect(item?.conversation).toBeNull();
    expect(parsed.problems.map((p) => p.path).sort()).toEqual([
      'entry[0].changes[0].value.statuses[0].conversation',
      'entry[0].changes[0].value.statuses[0].errors[0].code',
      'entry[0].changes[0].value.statuses[0].pricing.billable',
    ]);
  });

  it('reports wrong types in a change and keeps the changes next to it', () => {
    const parsed = parseWebhook(
      body([
        { field: 'message_template_quality_update', value: { new_quality_score: 7, message_template_id: 1 } },
        { field: 'message_template_status_update', value: 'PAUSED' },
        'not a change',
        { value: {} },
        { field: 'message_template_quality_update', value: { new_quality_score: 'RED', message_template_id: 2 } },
      ] as never),
    );
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0]).toMatchObject({ kind: 'template_quality', templateId: '2', newScore: 'RED' });
    expect(parsed.problems.map((p) => p.path)).toEqual([
      'entry[0].changes[0].value.new_quality_score',
      'entry[0].changes[1].value',
      'entry[0].changes[2]',
      'entry[0].changes[3].field',
    ]);
  });

  it('drops an entry without a WABA id and keeps the next entry', () => {
    const good = body([{ field: 'account_update', value: { event: 'ACCOUNT_DELETED' } }]);
    const entries = [{ time: 1, changes: [] }, ...(good.entry as unknown[])];
    const parsed = parseWebhook({ ...good, entry: entries });
    expect(parsed.problems).toEqual([{ path: 'entry[0].id', message: 'missing' }]);
    expect(kinds(parsed.items)).toEqual(['account_update']);
  });

  it('reports a missing metadata block but keeps the statuses', () => {
    const parsed = parseWebhook(body([{ field: 'messages', value: { statuses: [status('wamid.1', 'sent')] } }]));
    expect(parsed.problems).toEqual([{ path: 'entry[0].changes[0].value.metadata', message: 'missing metadata.phone_number_id' }]);
    expect(statuses(parsed.items)[0]?.source).toEqual({ wabaId: `${WABA}0`, phoneNumberId: null });
  });

  it('drops an inbound message that names no sender', () => {
    const parsed = parseWebhook(
      body([messagesChange({ messages: [{ id: 'wamid.x', timestamp: '1760000000', type: 'text', text: { body: 'hi' } }] })]),
    );
    expect(parsed.items).toEqual([]);
    expect(parsed.problems).toEqual([
      { path: 'entry[0].changes[0].value.messages[0].from', message: 'no sender: neither from nor from_user_id, and no contact matches' },
    ]);
  });

  it('reports a system notice other than a user id change that names no sender', () => {
    const notice = {
      id: 'wamid.x',
      timestamp: '1760000000',
      type: 'system',
      system: { body: 'User A changed from 972987654321 to 972912345678', wa_id: '972912345678', type: 'user_changed_number' },
    };
    const parsed = parseWebhook(body([messagesChange({ messages: [notice] })]));
    expect(parsed.items).toEqual([]);
    expect(parsed.problems.map((p) => p.path)).toEqual(['entry[0].changes[0].value.messages[0].from']);
  });
});

describe('parseWebhook: tolerance', () => {
  it('ignores unknown properties everywhere', () => {
    const parsed = parseWebhook({
      ...body([
        messagesChange({
          new_thing: [1],
          statuses: [status('wamid.1', 'sent', '1', { shiny: { a: 1 }, pricing: { category: 'utility', tier: 3 } })],
        }),
      ]),
      extra: true,
    });
    expect(parsed.problems).toEqual([]);
    expect(statuses(parsed.items)[0]?.pricing?.category).toBe('utility');
  });

  it('keeps fields it does not act on as ignored items', () => {
    const parsed = parseWebhook(
      body([
        { field: 'security', value: { event: 'PIN_CHANGED' } },
        { field: 'smb_message_echoes', value: null },
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items).toEqual([
      {
        kind: 'ignored',
        field: 'security',
        source: { wabaId: `${WABA}0`, phoneNumberId: null },
        path: 'entry[0].changes[0]',
        at: 1760000000000,
      },
      {
        kind: 'ignored',
        field: 'smb_message_echoes',
        source: { wabaId: `${WABA}0`, phoneNumberId: null },
        path: 'entry[0].changes[1]',
        at: 1760000000000,
      },
    ]);
  });

  it('accepts `played` and status values Meta adds later', () => {
    const parsed = parseWebhook(body([messagesChange({ statuses: [status('wamid.1', 'played'), status('wamid.2', 'held_for_review')] })]));
    expect(parsed.problems).toEqual([]);
    expect(statuses(parsed.items).map((s) => s.status)).toEqual(['played', 'held_for_review']);
  });

  it('keys BSUID-only users by user_id', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          contacts: [{ profile: { name: 'A' }, user_id: 'US.111' }],
          messages: [{ from_user_id: 'US.111', id: 'wamid.in', timestamp: '1760000000', type: 'text', text: { body: 'hi' } }],
          statuses: [status('wamid.out', 'delivered', '1760000000', { recipient_id: undefined, recipient_user_id: 'US.222' })],
        }),
      ]),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items.map((i) => (i.kind === 'inbound' ? i.from : i.kind === 'status' ? i.recipient : null))).toEqual([
      { waId: null, userId: 'US.222' },
      { waId: null, userId: 'US.111' },
    ]);
  });

  it('fills the BSUID of a status recipient from the contacts of the change', () => {
    const parsed = parseWebhook(
      body([messagesChange({ contacts: [{ wa_id: '447700900123', user_id: 'GB.abc' }], statuses: [status('wamid.1', 'read')] })]),
    );
    expect(parsed.problems).toEqual([]);
    expect(statuses(parsed.items)[0]?.recipient).toEqual({ waId: '447700900123', userId: 'GB.abc' });
  });

  it('keeps a status with no recipient identifiers, for the app to resolve by message id', () => {
    const parsed = parseWebhook(
      body([messagesChange({ statuses: [{ id: 'wamid.9', status: 'failed', timestamp: '1760000000', errors: [{ code: 131026 }] }] })]),
    );
    expect(parsed.problems).toEqual([]);
    expect(statuses(parsed.items)).toEqual([
      expect.objectContaining({
        messageId: 'wamid.9',
        recipient: { waId: null, userId: null },
        errors: [expect.objectContaining({ code: 131026 })],
      }),
    ]);
  });

  it('takes a failed status error from the change when the status carries none', () => {
    const parsed = parseWebhook(
      body([messagesChange({ statuses: [status('wamid.1', 'failed')], errors: [{ code: 131050, title: 'stopped' }] })]),
    );
    expect(parsed.problems).toEqual([]);
    expect(statuses(parsed.items)[0]).toMatchObject({ status: 'failed', errors: [{ code: 131050, title: 'stopped' }] });
  });

  it('takes the sender from the only contact when the message names none', () => {
    const parsed = parseWebhook(
      body([
        messagesChange({
          contacts: [{ user_id: 'US.333' }],
          messages: [{ id: 'wamid.in', timestamp: '1760000000', type: 'text', text: { body: 'hi' } }],
        }),
      ]),
    );
    expect(parsed.items[0]).toMatchObject({ kind: 'inbound', from: { waId: null, userId: 'US.333' } });
  });

  it('drops a contact with neither wa_id nor user_id', () => {
    const parsed = parseWebhook(
      body([messagesChange({ contacts: [{ profile: { name: 'A' } }], messages: [textMessage('wamid.1', 'x')] })]),
    );
    expect(parsed.problems).toEqual([{ path: 'entry[0].changes[0].value.contacts[0]', message: 'a contact needs wa_id or user_id' }]);
    expect(parsed.items).toHaveLength(1);
  });
});
