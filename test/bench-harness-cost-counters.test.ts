import { describe, expect, it } from 'vitest';
import {
  attributeWal,
  cpuTicks,
  cpuTicksBetween,
  lsnDiffBytes,
  NO_TABLE,
  parseLsn,
  parseProcStat,
  perUnit,
  ticksToMs,
  type ProcCpu,
  type WalRecord,
} from '../bench/fixtures/cost-counters.js';

// A real line of /proc/<pid>/stat (a postgres WAL writer), utime 1150 and stime 37 put in fields 14 and 15.
const WALWRITER =
  '2197 (postgres) S 2193 2197 2197 0 -1 4194368 1150 0 0 0 1150 37 0 0 20 0 1 0 2945 222445568 2616 18446744073709551615 94700130566144 0 0';

describe('reading a process CPU from /proc/<pid>/stat', () => {
  it('takes utime and stime, fields 14 and 15', () => {
    expect(parseProcStat(WALWRITER)).toEqual({ comm: 'postgres', cpu: { utime: 1150, stime: 37 } });
  });

  it('counts fields after the last parenthesis, whatever the command name holds', () => {
    const tricky = '42 (a) b (c) d) R 1 42 42 0 -1 0 0 0 0 0 7 9 0 0 20 0 1 0 100 0 0';
    expect(parseProcStat(tricky)).toEqual({ comm: 'a) b (c) d', cpu: { utime: 7, stime: 9 } });
  });

  it('refuses a line without a command name or with CPU fields that are not counts', () => {
    expect(() => parseProcStat('2197 postgres S 1 2 3')).toThrow(/no command name/);
    expect(() => parseProcStat('2197 (postgres) S 1 2')).toThrow(/not counts/);
    expect(() => parseProcStat('2197 (postgres) S 1 2 3 4 5 6 7 8 9 10 -1 3 0')).toThrow(/not counts/);
  });

  it('turns ticks into milliseconds at the clock rate', () => {
    expect(cpuTicks({ utime: 1150, stime: 37 })).toBe(1187);
    expect(ticksToMs(1187, 100)).toBe(11_870);
    expect(ticksToMs(3, 250)).toBe(12);
  });
});

describe('CPU between two readings of a set of processes', () => {
  const at = (entries: Array<[number, number, number]>): Map<number, ProcCpu> =>
    new Map(entries.map(([pid, utime, stime]) => [pid, { utime, stime }]));

  it('sums each process’s growth; one started meanwhile counts whole, one gone is left out', () => {
    const start = at([
      [10, 100, 20],
      [11, 5, 5],
      [12, 50, 0],
    ]);
    const end = at([
      [10, 130, 25], // +35
      [11, 5, 5], // +0
      [13, 4, 1], // new: +5
    ]);
    expect(cpuTicksBetween(start, end)).toBe(40);
  });

  it('refuses a process whose CPU went backwards (a pid reused)', () => {
    expect(() => cpuTicksBetween(at([[10, 100, 20]]), at([[10, 3, 0]]))).toThrow(/went backwards/);
  });
});

describe('WAL positions', () => {
  it('reads high/low hex halves as one byte position', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/4955E10')).toBe(0x4955e10n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it('measures the bytes between two positions, across the 4 GB boundary of the low half', () => {
    expect(lsnDiffBytes('0/4955E10', '0/5274000')).toBe(0x5274000 - 0x4955e10);
    expect(lsnDiffBytes('0/FFFFFF00', '1/00000100')).toBe(0x200);
    expect(lsnDiffBytes('3/10', '3/10')).toBe(0);
  });

  it('refuses text that is not a position, and a position that went backwards', () => {
    expect(() => parseLsn('4955E10')).toThrow(/not a WAL position/);
    expect(() => parseLsn('0/XYZ')).toThrow(/not a WAL position/);
    expect(() => lsnDiffBytes('0/200', '0/100')).toThrow(/went backwards/);
  });
});

describe('telling a run’s WAL records from other sessions’', () => {
  const DB = 16386;
  const OURS = new Map([
    [19794, 'outbox'],
    [19799, 'outbox'], // its primary key
    [19801, 'webhook_inbox'],
  ]);
  const rec = (xid: string, recordLength: number, blockRef: string | null, fpiLength = 0): WalRecord => ({
    xid,
    recordLength,
    fpiLength,
    blockRef,
  });

  it('counts records touching the run’s relations and the rest of their transactions (the commit)', () => {
    const records = [
      rec('5017', 61, 'blkref #0: rel 1663/16386/19794 fork main blk 0'),
      rec('5017', 90, 'blkref #0: rel 1663/16386/19799 fork main blk 1 blkref #2: rel 1663/16386/19799 fork main blk 0'),
      rec('5017', 34, null), // its commit
      rec('5018', 70, 'blkref #0: rel 1663/16386/20000 fork main blk 3', 40), // another session's table, its page logged whole
      rec('5018', 34, null),
      rec('0', 50, 'blkref #0: rel 1663/16386/19794 fork main blk 7', 30), // no transaction (a prune) on our table, a full page
      rec('0', 24, null), // RUNNING_XACTS: nobody's
    ];
    expect(attributeWal(records, DB, OURS)).toEqual({
      ours: 61 + 90 + 34 + 50,
      fpi: 30,
      all: 61 + 90 + 34 + 70 + 34 + 50 + 24,
      byTable: { outbox: 61 + 90 + 50, [NO_TABLE]: 34 },
    });
  });

  it('does not take a relation of the same number in another database', () => {
    const records = [rec('7', 61, 'blkref #0: rel 1663/5/19794 fork main blk 0'), rec('7', 34, null)];
    expect(attributeWal(records, DB, OURS)).toEqual({ ours: 0, fpi: 0, all: 95, byTable: {} });
  });

  it('finds one of the run’s blocks among others in one record, and bills the first one’s table', () => {
    const records = [
      rec('9', 120, 'blkref #0: rel 1663/16386/20000 fork main blk 0 blkref #1: rel 1663/16386/19799 fork main blk 4'),
      rec('9', 80, 'blkref #0: rel 1663/16386/19801 fork main blk 0 blkref #1: rel 1663/16386/19794 fork main blk 4'),
    ];
    expect(attributeWal(records, DB, OURS)).toMatchObject({ ours: 200, byTable: { outbox: 120, webhook_inbox: 80 } });
  });
});

describe('cost per unit of work', () => {
  it('divides a total by the work done', () => {
    expect(perUnit(1_500, 3_000, 'server CPU per send')).toBe(0.5);
    expect(perUnit(0, 10, 'background CPU')).toBe(0);
  });

  it('refuses no work done, and a total that is not a count', () => {
    expect(() => perUnit(10, 0, 'server CPU per send')).toThrow(/server CPU per send: 0 units/);
    expect(() => perUnit(10, Number.NaN, 'x')).toThrow(/nothing to divide by/);
    expect(() => perUnit(-1, 10, 'x')).toThrow(/not a count/);
    expect(() => perUnit(Number.POSITIVE_INFINITY, 10, 'x')).toThrow(/not a count/);
  });
});
