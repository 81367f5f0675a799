import { isIP } from 'node:net';
import type { Clock } from '../../ports/clock.js';

/** Where a credential was presented: the REST API (and /metrics), a dashboard page's bearer token, the sign-in form. */
export type AuthSurface = 'api' | 'dashboard' | 'sign_in';

export const AUTH_SURFACES: readonly AuthSurface[] = ['api', 'dashboard', 'sign_in'];

export interface AuthFailureSettings {
  /** Failures an address may make at once. */
  burst: number;
  /** Failures forgiven per second after that. */
  perSecond: number;
}

/** Ten wrong tokens at once from one address, then one every 6 s. */
export const DEFAULT_AUTH_FAILURES: AuthFailureSettings = { burst: 10, perSecond: 1 / 6 };

const MAX_ADDRESSES = 100_000;

export type Lockout = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Failed authentications per client address, shared by every surface that takes a token, so
 * guessing on one does not get a fresh allowance on another. Each attempt takes one of the
 * address's tries before its token is looked at, and a right token gives it back: successes cost
 * nothing, an address that has used its tries is refused without its token being checked (else a
 * right guess would still show through), and concurrent guesses cannot all slip in before the
 * first one fails. IPv6 addresses count by their /64, which one client usually holds whole. In
 * memory, per process; time comes from the clock, so tests drive it.
 */
export class AuthFailureLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Attempts refused with 429, by surface (for /metrics). */
  readonly limited: Record<AuthSurface, number> = { api: 0, dashboard: 0, sign_in: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly settings: AuthFailureSettings = DEFAULT_AUTH_FAILURES,
  ) {}

  /** Before checking a presented credential: takes one try, or refuses (counted for `surface`). */
  attempt(address: string, surface: AuthSurface): Lockout {
    const key = clientKey(address);
    const now = this.clock.now();
    const bucket = this.refilled(key, now);
    if (bucket.tokens < 1) {
      this.limited[surface]++;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.settings.perSecond)) };
    }
    bucket.tokens -= 1;
    // Re-inserted so the map's order is least recently tried first, for the bound below.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_ADDRESSES) this.prune(now);
    return { ok: true };
  }

  /** The credential of an admitted attempt was right: its try is given back. */
  succeeded(address: string): void {
    const key = clientKey(address);
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return;
    bucket.tokens = Math.min(this.settings.burst, bucket.tokens + 1);
    if (bucket.tokens >= this.settings.burst) this.buckets.delete(key);
  }

  private refilled(key: string, now: number): { tokens: number; at: number } {
    const bucket = this.buckets.get(key) ?? { tokens: this.settings.burst, at: now };
    bucket.tokens = Math.min(this.settings.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.settings.perSecond);
    bucket.at = now;
    return bucket;
  }

  /** Forgiven addresses go first; a flood of distinct addresses then drops the least recent. */
  private prune(now: number): void {
    const fullAfter = (this.settings.burst / this.settings.perSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.at >= fullAfter) this.buckets.delete(key);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= MAX_ADDRESSES) break;
      this.buckets.delete(key);
    }
  }
}

/** An IPv4 address as is (also when IPv4-mapped), an IPv6 address by its first 64 bits. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(address) !== 6 || address.includes('.')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed authentications per client address, shared by the REST API and the dashboard. */
    pacerAuthFailures: AuthFailureLimiter;
  }
}
