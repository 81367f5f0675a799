import { describe, expect, it } from 'vitest';
import type { GroundTruth } from '../src/adapters/simulator/index.js';
import { cappedInAnyWorld } from '../src/main/demo/demo-metrics.js';
import { winners, type Row } from '../src/main/demo/demo-report.js';

const row = (values: number[], better: Row['better'], of?: number[]): Row => ({ label: 'r', values, better, ...(of ? { of } : {}) });

describe('which columns win a row', () => {
  it('marks the best count, all tied best, and none when every column is equal', () => {
    expect(winners(row([3, 5, 5], 'higher'))).toEqual([1, 2]);
    expect(winners(row([3, 5, 5], 'lower'))).toEqual([0]);
    expect(winners(row([4, 4, 4], 'lower'))).toEqual([]);
    expect(winners(row([1, 2], 'none'))).toEqual([]);
  });

  it('compares a share row by share, and a column that delivered nothing has no share to win with', () => {
    // 10 of 100 at night beats 2 of 10.
    expect(winners(row([10, 2], 'lower', [100, 10]))).toEqual([0]);
    // 0 of 0 is not "no night deliveries": it is nothing delivered.
    expect(winners(row([0, 0, 121], 'lower', [0, 0, 121]))).toEqual([]);
    expect(winners(row([0, 5, 121], 'lower', [0, 100, 121]))).toEqual([1]);
    expect(winners(row([0, 0, 3], 'lower', [0, 10, 121]))).toEqual([1]);
  });
});

describe('the people counted for "utility delivered to capped contacts"', () => {
  const msg = (to: string, category: string, errorCode: number | null) => ({ to, category, errorCode });
  const truth = (...messages: Array<ReturnType<typeof msg>>) => ({ messages }) as unknown as GroundTruth;

  it('are those whose marketing was capped in any world, the same set for every column', () => {
    const capped = cappedInAnyWorld([
      truth(msg('44700', 'marketing', 131049), msg('44701', 'marketing', null)),
      truth(msg('44702', 'marketing', 131049), msg('44700', 'marketing', 131049)),
      // A utility failure or another marketing error is not the per-user marketing cap.
      truth(msg('44703', 'utility', 131049), msg('44704', 'marketing', 131026)),
    ]);
    expect([...capped].sort()).toEqual(['44700', '44702']);
  });
});
