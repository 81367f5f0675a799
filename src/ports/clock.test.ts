import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock.js';

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
