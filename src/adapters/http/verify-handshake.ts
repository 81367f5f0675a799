import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Meta's subscription check: `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`. */
export type HandshakeResult =
  { ok: true; challenge: string } | { ok: false; status: 400 | 403; error: 'bad_request' | 'forbidden'; message: string };

const param = z.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be given once, as text') });

const querySchema = z.object({
  'hub.mode': param.refine((v) => v === 'subscribe', { message: 'must be "subscribe"' }),
  // Meta sends a number; anything printable and short is echoed back as plain text.
  'hub.challenge': param.min(1, { message: 'is missing' }).max(1024, { message: 'is longer than 1024 characters' }),
});

const tokenSchema = z.object({ 'hub.verify_token': z.string().optional() });

/** Compares without leaking the expected token's length or content through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Missing or malformed parameters → 400 naming them; a missing or wrong token → 403. With no verify
 * token configured every handshake is refused, so an unconfigured server cannot be subscribed.
 */
export function verifyHandshake(query: unknown, verifyToken: string | null): HandshakeResult {
  const parsed = querySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.')} ${i.message}`);
    return { ok: false, status: 400, error: 'bad_request', message: `query parameter ${problems.join('; ')}` };
  }
  const token = tokenSchema.safeParse(query);
  const given = token.success ? token.data['hub.verify_token'] : undefined;
  if (verifyToken === null || verifyToken === '') {
    return { ok: false, status: 403, error: 'forbidden', message: 'no verify token is configured (WHATSAPP_VERIFY_TOKEN)' };
  }
  if (given === undefined || given === '') {
    return { ok: false, status: 403, error: 'forbidden', message: 'query parameter hub.verify_token is missing' };
  }
  if (!sameToken(given, verifyToken)) {
    return { ok: false, status: 403, error: 'forbidden', message: 'query parameter hub.verify_token does not match the configured token' };
  }
  return { ok: true, challenge: parsed.data['hub.challenge'] };
}
