import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Hub-Signature-256` value for a raw body: `sha256=` + hex HMAC-SHA256 keyed with the app secret. */
export function signBody(rawBody: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export type SignatureCheck =
  { ok: true; secretIndex: number } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'no_secret_configured' };

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/** What is wrong with the header before any body is read: absent, or not `sha256=` and 64 hex digits. */
export function signatureHeaderProblem(header: string | undefined): 'missing' | 'malformed' | null {
  if (header === undefined || header === '') return 'missing';
  return HEADER.test(header.trim()) ? null : 'malformed';
}

/**
 * Verifies the exact bytes Meta sent against every configured secret (several during rotation),
 * in constant time per secret. Never re-serialise the body before calling this.
 */
export function verifySignature(rawBody: Uint8Array, header: string | undefined, appSecrets: readonly string[]): SignatureCheck {
  if (appSecrets.length === 0) return { ok: false, reason: 'no_secret_configured' };
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const match = HEADER.exec(header.trim());
  if (!match?.[1]) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  for (const [index, secret] of appSecrets.entries()) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    if (timingSafeEqual(expected, given)) return { ok: true, secretIndex: index };
  }
  return { ok: false, reason: 'mismatch' };
}
