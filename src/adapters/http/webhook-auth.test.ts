import { describe, expect, it } from 'vitest';
import { signBody } from './webhook-signature.js';
import { WEBHOOK_REJECT_REASONS } from './http-metrics.js';
import { authenticateWebhook, refusalBeforeBody, rejectMessage } from './webhook-auth.js';

const raw = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('authenticateWebhook', () => {
  it('accepts a signature made with any configured secret', () => {
    const config = { appSecrets: ['new', 'old'], mode: 'production' } as const;
    expect(authenticateWebhook(raw, signBody(raw, 'old'), config)).toEqual({ accept: true, signatureOk: true });
    expect(authenticateWebhook(raw, signBody(raw, 'new'), config)).toEqual({ accept: true, signatureOk: true });
    expect(authenticateWebhook(raw, signBody(raw, 'other'), config)).toEqual({ accept: false, reason: 'mismatch' });
  });

  it('refuses missing, malformed and repeated headers', () => {
    const config = { appSecrets: ['s'], mode: 'development' } as const;
    expect(authenticateWebhook(raw, undefined, config)).toEqual({ accept: false, reason: 'missing' });
    expect(authenticateWebhook(raw, 'sha256=zz', config)).toEqual({ accept: false, reason: 'malformed' });
    expect(authenticateWebhook(raw, [signBody(raw, 's'), signBody(raw, 's')], config)).toEqual({ accept: false, reason: 'malformed' });
  });

  it('without secrets: production refuses everything, development stores unverified', () => {
    const signed = signBody(raw, 's');
    expect(authenticateWebhook(raw, signed, { appSecrets: [], mode: 'production' })).toEqual({
      accept: false,
      reason: 'no_secret_configured',
    });
    expect(authenticateWebhook(raw, undefined, { appSecrets: [], mode: 'development' })).toEqual({ accept: true, signatureOk: false });
    expect(authenticateWebhook(raw, signed, { appSecrets: [], mode: 'development' })).toEqual({ accept: true, signatureOk: false });
  });

  it('refuses before the body exactly what the body could not change', () => {
    const headers = [
      undefined,
      '',
      'sha1=abc',
      'sha256=zz',
      signBody(raw, 's'),
      signBody(raw, 'other'),
      [signBody(raw, 's'), signBody(raw, 's')],
    ];
    const configs = [
      { appSecrets: ['s'], mode: 'production' },
      { appSecrets: ['s'], mode: 'development' },
      { appSecrets: [], mode: 'production' },
      { appSecrets: [], mode: 'development' },
    ] as const;
    for (const config of configs) {
      for (const header of headers) {
        const early = refusalBeforeBody(header, config);
        const late = authenticateWebhook(raw, header, config);
        if (early !== null) expect(late, JSON.stringify({ header, config })).toEqual({ accept: false, reason: early });
        else expect(late.accept || late.reason === 'mismatch', JSON.stringify({ header, config })).toBe(true);
      }
    }
    expect(refusalBeforeBody(undefined, { appSecrets: ['s'], mode: 'production' })).toBe('missing');
  });

  it('has a message for every reason that names the header or the setting', () => {
    for (const reason of WEBHOOK_REJECT_REASONS) expect(rejectMessage(reason)).toMatch(/X-Hub-Signature-256|WHATSAPP_APP_SECRET/);
  });
});
