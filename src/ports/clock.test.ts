import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock, VirtualClock } from './clock.js';

describe('systemClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never runs a task before its time, even when its timer fires early by Date.now()', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const ran: number[] = [];
    systemClock.at(1_000_100, () => void ran.push(Date.now()));
    // The wall clock a millisecond behind the timers' clock, as Node's rounding can leave it.
    vi.setSystemTime(999_999);
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual([1_000_100]);
  });

  it('cancels a timer that is waiting out an early firing', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const ran: number[] = [];
    const timer = systemClock.at(1_000_100, () => void ran.push(Date.now()));
    vi.setSystemTime(999_999);
    await vi.advanceTimersByTimeAsync(100);
    timer.cancel();
    await vi.advanceTimersByTimeAsync(10);
    expect(ran).toEqual([]);
  });
});

describe('VirtualClock', () => {
  it('runs timers in time order, ties in the order they were set, reading each timer its own time', async () => {
    const clock = new VirtualClock(1_000);
    const seen: string[] = [];
    clock.at(1_300, () => void seen.push(`c@${clock.now()}`));
    clock.at(1_100, () => void seen.push(`a@${clock.now()}`));
    clock.at(1_300, () => void seen.push(`d@${clock.now()}`));
    clock.at(1_200, () => void seen.push(`b@${clock.now()}`));
    await clock.advance(250);
    expect(seen).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1_250);
    await clock.advance(1_000);
    expect(seen).toEqual(['a@1100', 'b@1200', 'c@1300', 'd@1300']);
    expect(clock.now()).toBe(2_250);
  });

  it('awaits async timers and runs timers they schedule inside the same advance', async () => {
    const clock = new VirtualClock(0);
    const seen: number[] = [];
    clock.at(10, async () => {
      await Promise.resolve();
      seen.push(clock.now());
      clock.at(clock.now() + 5, () => void seen.push(clock.now()));
      clock.at(clock.now() + 500, () => void seen.push(clock.now()));
    });
    await clock.advance(100);
    expect(seen).toEqual([10, 15]);
    expect(clock.pending()).toBe(1);
  });

  it('skips cancelled timers and refuses to go backwards', async () => {
    const clock = new VirtualClock(0);
    let ran = false;
    const timer = clock.at(5, () => {
      ran = true;
    });
    timer.cancel();
    await clock.advance(10);
    expect(ran).toBe(false);
    expect(clock.pending()).toBe(0);
    expect(() => clock.advance(-1)).toThrow(/>= 0/);
  });

  it('keeps many timers in order (heap property)', async () => {
    const clock = new VirtualClock(0);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const at = (i * 7919) % 1000;
      clock.at(at, () => void times.push(clock.now()));
    }
    await clock.advance(1_000);
    expect(times).toHaveLength(500);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
