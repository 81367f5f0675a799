import { describe, expect, it } from 'vitest';
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
