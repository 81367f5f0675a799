import { describe, expect, it } from 'vitest';
import { stderrLogger } from './stderr-logger.js';

describe('stderrLogger', () => {
  it('writes entries at its level and above, one line each, fields as JSON', () => {
    const lines: string[] = [];
    const log = stderrLogger({ level: 'warn', write: (l) => void lines.push(l) });
    log.debug('dispatch pass', { claimed: 3 });
    log.info('started');
    log.warn('slow');
    log.error('dispatch failed, retrying', { error: 'StoreError', code: 'unavailable' });
    expect(lines).toEqual(['pacer warn: slow\n', 'pacer error: dispatch failed, retrying {"error":"StoreError","code":"unavailable"}\n']);
  });

  it('writes everything at debug, and nothing when silent', () => {
    const verbose: string[] = [];
    const silent: string[] = [];
    for (const [level, into] of [
      ['debug', verbose],
      ['silent', silent],
    ] as const) {
      const log = stderrLogger({ level, write: (l) => void into.push(l) });
      log.debug('a');
      log.info('b');
      log.error('c');
    }
    expect(verbose).toEqual(['pacer debug: a\n', 'pacer info: b\n', 'pacer error: c\n']);
    expect(silent).toEqual([]);
  });
});
