import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceStatus, type MessageStatus, type StatusPoint } from './message-status.js';

const start: StatusPoint = { status: 'accepted', at: 0 };
const fold = (points: StatusPoint[]) => points.reduce(advanceStatus, start);

describe('advanceStatus', () => {
  it('moves forward only, accepting a skipped delivered', () => {
    expect(
      fold([
        { status: 'sent', at: 1 },
        { status: 'read', at: 3 },
        { status: 'delivered', at: 2 },
      ]).status,
    ).toBe('read');
    expect(
      fold([
        { status: 'read', at: 3 },
        { status: 'sent', at: 1 },
      ]).status,
    ).toBe('read');
  });

  it('keeps failed terminal, lets it follow sent, and never lets it erase a delivery', () => {
    expect(
      fold([
        { status: 'sent', at: 1 },
        { status: 'failed', at: 2 },
        { status: 'delivered', at: 3 },
      ]).status,
    ).toBe('failed');
    expect(
      fold([
        { status: 'delivered', at: 2 },
        { status: 'failed', at: 3 },
      ]).status,
    ).toBe('delivered');
  });

  it('treats a duplicate as a no-op, keeping the first time seen', () => {
    expect(
      fold([
        { status: 'delivered', at: 2 },
        { status: 'delivered', at: 9 },
      ]),
    ).toEqual({ status: 'delivered', at: 2 });
  });

  it('ends at the furthest status whatever the arrival order, when nothing failed', () => {
    const status = fc.constantFrom<MessageStatus>('sent', 'delivered', 'read', 'played');
    fc.assert(
      fc.property(
        fc
          .array(fc.record({ status, at: fc.nat() }), { minLength: 1 })
          .chain((ps) => fc.tuple(fc.constant(ps), fc.shuffledSubarray(ps, { minLength: ps.length }))),
        ([ps, shuffled]) => {
          expect(fold(shuffled).status).toBe(fold(ps).status);
        },
      ),
    );
  });
});
