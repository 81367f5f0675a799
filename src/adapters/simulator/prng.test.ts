import { describe, expect, it } from 'vitest';
import { hash32, Prng } from './prng.js';

describe('Prng', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    const c = new Prng(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
  });

  it('stays in range and is roughly uniform', () => {
    const r = new Prng(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      buckets[Math.floor(x * 10)]! += 1;
    }
    for (const n of buckets) expect(n).toBeGreaterThan(1_700);
    for (let i = 0; i < 1_000; i++) {
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5).toBe(true);
    }
  });

  it('draws exponential waits with about the requested mean', () => {
    const r = new Prng(11);
    let sum = 0;
    for (let i = 0; i < 20_000; i++) sum += r.exponential(100);
    expect(sum / 20_000).toBeGreaterThan(95);
    expect(sum / 20_000).toBeLessThan(105);
  });

  it('derives independent, reproducible streams per label', () => {
    const x = new Prng(5).derive('user:1').next();
    expect(new Prng(5).derive('user:1').next()).toBe(x);
    expect(new Prng(5).derive('user:2').next()).not.toBe(x);
    expect(hash32('a')).not.toBe(hash32('b'));
  });
});
