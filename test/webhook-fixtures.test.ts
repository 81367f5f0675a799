import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { fillPlaceholders, PLACEHOLDERS } from './meta-fixture-placeholders.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWebhook } from '../src/adapters/webhook/parse-webhook.js';
import { statusEvent } from '../src/app/status-event.js';
import { toContactEvents } from '../src/app/to-contact-events.js';
import type { ParsedWebhook, WebhookItem } from '../src/ports/webhook-items.js';

// Real payloads, shared by the whole project; the repository sits next to them.
const FIXTURE_DIR = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');

interface FixtureCase {
  family: string;
  name: string;
  body: unknown;
}

/** Every case of every `*.json` file in `dir`; a file added later is picked up without touching this test. */
function loadFixtureCases(dir: string): FixtureCase[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      // Syntax templates get documented values in their placeholders: `<USER_PHONE_NUMBER>` is not a phone number.
      const cases = JSON.parse(fillPlaceholders(readFileSync(path.join(dir, file), 'utf8'))) as Record<string, unknown>;
      return Object.entries(cases).map(([name, body]) => ({ family: path.basename(file, '.json'), name, body }));
    });
}

function only<K extends WebhookItem['kind']>(parsed: ParsedWebhook, kind: K): Extract<WebhookItem, { kind: K }> {
  const matching = parsed.items.filter((item): item is Extract<WebhookItem, { kind: K }> => item.kind === kind);
  expect(matching).toHaveLength(1);
  return matching[0] as Extract<WebhookItem, { kind: K }>;
}

const WA_ID = '972987654321';
const BSUID = 'US.13491208655302741918';

/** What each family's cases must yield, beyond "parses with no problem". */
const FAMILY_CHECKS: Record<string, (name: string, parsed: ParsedWebhook) => void> = {
  message_status(name, parsed) {
    const status = only(parsed, 'status');
    const keyed = statusEvent(status);
    if (name === 'group') {
      expect(status.source).toEqual({
        wabaId: PLACEHOLDERS['<WHATSAPP_BUSINESS_ACCOUNT_ID>'],
        phoneNumberId: PLACEHOLDERS['<BUSINESS_PHONE_NUMBER_ID>'],
      });
      expect(status.groupId).toBe('fowefinoewcnw');
      expect(status.recipient).toEqual({ waId: PLACEHOLDERS['<GROUP_PARTICIPANT_USER_PHONE_NUMBER>'], userId: 'US.123456' });
      return;
    }
    expect(status.source).toEqual({ wabaId: '5467539754836534', phoneNumberId: '1122334455667' });
    expect(keyed?.contact).toEqual({ waId: WA_ID, userId: BSUID });
    expect(keyed?.event).toMatchObject({ type: 'status', messageId: 'wamid.xyzxyz', id: `wamid.xyzxyz:${status.status}` });
    const expected: Record<string, string> = {
      sent: 'sent',
      delivered: 'delivered',
      read: 'read',
      played: 'played',
      failed: 'failed',
      with_tracker: 'sent',
    };
    expect(status.status).toBe(expected[name]);
    if (name === 'failed') {
      expect(status.errors).toEqual([
        {
          code: 130472,
          title: "User's number is part of an experiment",
          message: "User's number is part of an experiment",
          details: "Failed to send message because this user's phone number is part of an experiment",
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        },
      ]);
      // A failure counts from the end of its stated second.
      expect(keyed?.event).toMatchObject({ status: 'failed', errorCode: 130472, category: null, at: 1689380458999 });
    } else {
      expect(status.pricing).toEqual({ billable: true, model: 'CBP', type: null, category: 'service' });
      expect(keyed?.event).toMatchObject({ category: 'service', errorCode: null });
    }
    if (name === 'with_tracker') expect(status.callbackData).toBe('some data');
    if (name === 'sent')
      expect(status.conversation).toEqual({ id: '7270432eae37498234f4444b35ffc5', expiresAt: 1698339900000, originType: 'service' });
  },
  user_marketing_preferences(name, parsed) {
    const pref = only(parsed, 'user_preference');
    // The preference names its own user, who is not the contact listed beside it.
    expect(pref.contact).toEqual({ waId: '16505551234', userId: null });
    expect(pref.at).toBe(1731705721000);
    const events = toContactEvents(parsed.items);
    if (name === 'resume') {
      expect(events).toEqual([
        { contact: pref.contact, event: expect.objectContaining({ type: 'preference', value: 'resume', at: 1731705721000 }) },
      ]);
    } else {
      expect(pref).toMatchObject({ value: 'signup', signupId: '13176843987434774' });
      expect(events).toEqual([]);
    }
  },
  callback_button(name, parsed) {
    const inbound = only(parsed, 'inbound');
    const [keyed] = toContactEvents(parsed.items);
    expect(keyed?.contact).toEqual({ waId: WA_ID, userId: BSUID });
    if (name === 'button') {
      expect(inbound.interactive).toEqual({ type: 'button_reply', id: 'callback_data', title: 'title', description: null });
      expect(keyed?.event).toMatchObject({ type: 'inbound', kind: 'interactive', text: 'title', payload: 'callback_data' });
    } else {
      expect(inbound.button).toEqual({ text: 'title', payload: 'callback_data' });
      expect(keyed?.event).toMatchObject({
        type: 'inbound',
        kind: 'button',
        text: 'title',
        payload: 'callback_data',
        id: inbound.messageId,
      });
    }
    if (name === 'quick_reply') expect(inbound.context).toEqual({ from: '972123456789', messageId: 'wamid.xyzxyz==', forwarded: false });
    if (name === 'quick_reply_without_context') expect(inbound.context).toBeNull();
  },
  callback_selection(name, parsed) {
    const inbound = only(parsed, 'inbound');
    expect(inbound.interactive).toEqual({
      type: 'list_reply',
      id: 'callback_data',
      title: 'title',
      description: name === 'description' ? 'description' : null,
    });
    expect(toContactEvents(parsed.items)[0]?.event).toMatchObject({ kind: 'interactive', payload: 'callback_data', text: 'title' });
  },
  message(name, parsed) {
    const inbound = only(parsed, 'inbound');
    expect(inbound.from).toEqual({ waId: WA_ID, userId: BSUID });
    const event = toContactEvents(parsed.items)[0]?.event;
    expect(event).toMatchObject({ type: 'inbound', id: inbound.messageId, at: inbound.at, freeEntry: name === 'referral' });
    if (name === 'text') expect(event).toMatchObject({ kind: 'text', text: 'Body Text', payload: null });
    if (name === 'referral')
      expect(inbound.referral).toEqual({
        sourceType: PLACEHOLDERS['ad or post'],
        sourceId: 'ADID',
        sourceUrl: 'AD_OR_POST_FB_URL',
        ctwaClid: 'CTWA_CLID',
      });
    if (name === 'image') expect(inbound.media).toEqual({ type: 'image', id: '65463453', mimeType: 'image/jpeg', caption: null });
    if (name === 'video') expect(inbound.context?.forwarded).toBe(true);
    if (name.startsWith('unsupported')) {
      expect(inbound.errors[0]).toMatchObject({ code: 131051, details: 'Message type is currently not supported.' });
      expect(event).toMatchObject({ kind: 'other', text: null });
    }
    if (name === 'interactive_message_with_err') {
      expect(only(parsed, 'change_error').error).toMatchObject({ code: 131000, details: 'Unsupported webhook payload' });
      expect(inbound.interactive).toBeNull();
    }
  },
  system(name, parsed) {
    const inbound = only(parsed, 'inbound');
    expect(inbound.type).toBe('system');
    if (name === 'phone_number_change')
      expect(inbound.system).toEqual({
        type: 'user_changed_number',
        body: 'User A changed from 972987654321 to 972912345678',
        newWaId: '972912345678',
        newUserId: null,
      });
    expect(toContactEvents(parsed.items)).toEqual([]);
  },
  template_status_update(name, parsed) {
    const item = only(parsed, 'template_status');
    const expected = {
      approved: {
        event: 'APPROVED',
        templateId: '1689556908129832',
        name: 'order_confirmation',
        language: 'en_US',
        category: 'UTILITY',
        reason: 'NONE',
      },
      rejected: {
        event: 'REJECTED',
        templateId: '1689556908129835',
        name: 'abandoned_cart',
        language: 'en',
        category: 'MARKETING',
        reason: 'INVALID_FORMAT',
      },
    }[name];
    expect(item).toMatchObject({ ...expected, at: 1751247548000, source: { wabaId: '102290129340398', phoneNumberId: null } });
    if (name === 'rejected') expect(item.rejectionInfo?.recommendation).toMatch(/^Separate parameters/);
  },
  template_quality_update(_name, parsed) {
    expect(only(parsed, 'template_quality')).toMatchObject({
      templateId: '806312974732579',
      name: 'welcome_template',
      language: 'en_US',
      previousScore: 'GREEN',
      newScore: 'YELLOW',
      at: 1674864290000,
    });
  },
  template_category_update(_name, parsed) {
    expect(only(parsed, 'template_category')).toMatchObject({
      templateId: '12345678',
      name: 'my_message_template',
      language: 'he',
      newCategory: 'MARKETING',
      previousCategory: null,
      correctCategory: null,
    });
  },
  account_update(name, parsed) {
    const item = only(parsed, 'account_update');
    const events: Record<string, string> = {
      account_deleted: 'ACCOUNT_DELETED',
      account_restriction: 'ACCOUNT_RESTRICTION',
      account_violation: 'ACCOUNT_VIOLATION',
      ad_account_linked: 'AD_ACCOUNT_LINKED',
      authentication_international_eligibility: 'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
      account_disabled: 'DISABLED_UPDATE',
      mm_api_for_wa_terms_of_service: 'MM_LITE_TERMS_SIGNED',
      partner_added: 'PARTNER_ADDED',
      partner_app_installed: 'PARTNER_APP_INSTALLED',
      partner_app_uninstalled: 'PARTNER_APP_UNINSTALLED',
      partner_led_business_verification_status: 'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE',
      partner_removed: 'PARTNER_REMOVED',
      partner_removed_wa_app_disconnection: 'PARTNER_REMOVED',
      primary_business_location_set: 'BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE',
      pricing_tiering_update: 'VOLUME_BASED_PRICING_TIER_UPDATE',
      account_offboarded: 'ACCOUNT_OFFBOARDED',
      account_reconnected: 'ACCOUNT_RECONNECTED',
    };
    expect(item.event).toBe(events[name]);
    if (name === 'account_restriction') {
      expect(item.restrictions).toEqual([
        { type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiresAt: 1641330498000, remediation: null },
        { type: 'RESTRICTED_ADD_PHONE_NUMBER_ACTION', expiresAt: 1641330498000, remediation: null },
      ]);
    }
    if (name === 'account_violation') expect(item.violationType).toBe('ADULT');
    if (name === 'account_disabled') expect(item).toMatchObject({ banState: 'REINSTATE', banDate: 'April 17, 2025' });
    if (name === 'primary_business_location_set') expect(item.details).toEqual({ country: 'IN' });
    expect(toContactEvents(parsed.items)).toEqual([]);
  },
};

const cases = loadFixtureCases(FIXTURE_DIR);

describe('Meta webhook fixtures', () => {
  it('finds the fixture files', () => {
    expect(new Set(cases.map((c) => c.family))).toEqual(new Set(Object.keys(FAMILY_CHECKS)));
  });

  it.each(cases.map((c) => [`${c.family}/${c.name}`, c] as const))('%s parses with no problem and yields items', (_label, fixture) => {
    const parsed = parseWebhook(fixture.body);
    expect(parsed.problems).toEqual([]);
    expect(parsed.items.length).toBeGreaterThan(0);
    FAMILY_CHECKS[fixture.family]?.(fixture.name, parsed);
  });

  it('a stop preference (the resume case with its value flipped) yields a stop event for that wa_id', () => {
    const resume = cases.find((c) => c.family === 'user_marketing_preferences' && c.name === 'resume');
    const stop = JSON.parse(JSON.stringify(resume?.body).replace('"resume"', '"stop"').replace('to resume', 'to stop')) as unknown;
    const parsed = parseWebhook(stop);
    expect(parsed.problems).toEqual([]);
    expect(toContactEvents(parsed.items)).toEqual([
      {
        contact: { waId: '16505551234', userId: null },
        event: {
          type: 'preference',
          id: expect.stringMatching(/^preference:[0-9a-f]{16}:stop:1731705721000$/),
          at: 1731705721000,
          value: 'stop',
        },
      },
    ]);
  });
});

describe('fixture discovery', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'pacer-fixtures-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('picks up a fixture file added to the directory later', () => {
    for (const file of readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json')))
      copyFileSync(path.join(FIXTURE_DIR, file), path.join(scratch, file));
    const body = {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'security', value: { event: 'PIN_CHANGED' } }] }],
    };
    writeFileSync(path.join(scratch, 'security.json'), JSON.stringify({ pin_changed: body }));
    const found = loadFixtureCases(scratch);
    expect(found).toHaveLength(cases.length + 1);
    expect(found.find((c) => c.family === 'security')).toEqual({ family: 'security', name: 'pin_changed', body });
  });
});
