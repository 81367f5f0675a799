import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenScope } from '../../../app/api-scope.js';
import { hashApiToken, type ApiPrincipal } from '../../../app/api-tokens.js';
import type { Millis } from '../../../core/time.js';

/**
 * Who signed in, with the token's scope: the bootstrap admin token, or a stored API token (kept by
 * hash to see revocation).
 */
export type Principal =
  { kind: 'admin'; scope: 'admin' } | { kind: 'token'; id: number; name: string; tokenHash: string; scope: TokenScope };

export interface Session {
  principal: Principal;
  /** Sent back in every form; a POST without it is refused (cross-site request forgery). */
  csrf: string;
  expiresAt: Millis;
}

export const SESSION_COOKIE = 'pacer_session';
const SESSION_LENGTH: Millis = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 10_000;

/**
 * Browser sessions in memory: the cookie carries a random id, never the API token, so a stolen
 * cookie dies with a restart or a sign-out, and the token's revocation is checked on every request.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  create(principal: Principal, now: Millis): { id: string; session: Session } {
    this.sweep(now);
    const id = randomBytes(32).toString('base64url');
    const session: Session = { principal, csrf: randomBytes(24).toString('base64url'), expiresAt: now + SESSION_LENGTH };
    this.sessions.set(id, session);
    return { id, session };
  }

  get(id: string | undefined, now: Millis): Session | null {
    if (id === undefined) return null;
    const session = this.sessions.get(id);
    if (session === undefined) return null;
    if (session.expiresAt <= now) {
      this.sessions.delete(id);
      return null;
    }
    return session;
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }

  private sweep(now: Millis): void {
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
    // A flood of sign-ins must not grow memory without bound: the oldest sessions go first.
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
  }
}

export function principalFor(check: ApiPrincipal, token: string): Principal {
  return check.kind === 'admin' ? check : { ...check, tokenHash: hashApiToken(token) };
}

/** Constant-time comparison of the form's CSRF token with the session's. */
export function sameCsrf(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A cookie's value; one that is not valid percent-encoding reads as absent (no session), never as a fault. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decoded(part.slice(eq + 1).trim());
  }
  return undefined;
}

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_LENGTH / 1000}${secure ? '; Secure' : ''}`;
}

export function clearedCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}
