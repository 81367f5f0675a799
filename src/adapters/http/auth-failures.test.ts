import { describe, expect, it } from 'vitest';
import { AuthFailureLimiter, clientKey } from './auth-failures.js';

describe('AuthFailureLimiter', () => {
  it('refuses an address once its tries are spent, and gives one back per interval', () => {
    const clock = { t: 0, now: () => clock.t };
    const limiter = new AuthFailureLimiter(clock, { burst: 3, perSecond: 1 / 6 });
    for (let i = 0; i < 3; i++) expect(limiter.attempt('192.0.2.1', 'api')).toEqual({ ok: true });
    expect(limiter.attempt('192.0.2.1', 'api')).toEqual({ ok: false, retryAfterSeconds: 6 });
    expect(limiter.attempt('192.0.2.2', 'api')).toEqual({ ok: true });
    clock.t += 3_000;
    expect(limiter.attempt('192.0.2.1', 'sign_in')).toEqual({ ok: false, retryAfterSeconds: 3 });
    clock.t += 3_000;
    expect(limiter.attempt('192.0.2.1', 'api').ok).toBe(true);
    expect(limiter.limited).toEqual({ api: 1, dashboard: 0, sign_in: 1 });
  });

  it('takes a try before the token is checked, so concurrent guesses cannot all get in; a success gives it back', () => {
    const limiter = new AuthFailureLimiter({ now: () => 0 }, { burst: 2, perSecond: 1 });
    // Three guesses in flight at once: the third is refused before the first one is answered.
    expect([1, 2, 3].map(() => limiter.attempt('192.0.2.1', 'api').ok)).toEqual([true, true, false]);
    limiter.succeeded('192.0.2.1');
    expect(limiter.attempt('192.0.2.1', 'api').ok).toBe(true);
    for (let i = 0; i < 100; i++) {
      expect(limiter.attempt('192.0.2.9', 'api').ok).toBe(true);
      limiter.succeeded('192.0.2.9');
    }
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    const limiter = new AuthFailureLimiter({ now: () => 0 }, { burst: 1, perSecond: 1 });
    expect(limiter.attempt('2001:db8:1:2::a', 'api').ok).toBe(true);
    expect(limiter.attempt('2001:db8:1:2::b', 'api').ok).toBe(false);
    expect(limiter.attempt('2001:db8:1:3::a', 'api').ok).toBe(true);
  });
});
