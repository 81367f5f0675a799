import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from './webhook-signature.js';

const body = Buffer.from('{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[]}],"note":"café 👍"}');

describe('verifySignature', () => {
  it('accepts the exact bytes signed with a configured secret, including during rotation', () => {
    expect(verifySignature(body, signBody(body, 's3cret'), ['s3cret'])).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, signBody(body, 'new'), ['old', 'new'])).toEqual({ ok: true, secretIndex: 1 });
  });

  it('refuses a wrong secret, a changed body and a re-serialised body', () => {
    const header = signBody(body, 's3cret');
    expect(verifySignature(body, header, ['other'])).toEqual({ ok: false, reason: 'mismatch' });
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))).replace('café', 'cafe\u0301'));
    expect(verifySignature(reserialised, header, ['s3cret'])).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('names a missing or malformed header and a missing secret', () => {
    expect(verifySignature(body, undefined, ['s'])).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature(body, 'sha1=abc', ['s'])).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, 'sha256=zz', ['s'])).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, signBody(body, 's'), [])).toEqual({ ok: false, reason: 'no_secret_configured' });
  });
});
