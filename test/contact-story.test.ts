import { describe, expect, it } from 'vitest';
import type { GroundTruth, MessageTruth } from '../src/adapters/simulator/index.js';
import { HOUR } from '../src/core/time.js';
import { contactStories, when } from '../src/main/demo/contact-story.js';
import { LAB_START } from '../src/main/demo/run-lab.js';
import type { WorldOutcome } from '../src/main/demo/run-world.js';

/** A campaign message to one person: capped, or delivered (only the fields a story reads matter). */
function message(to: string, timeZone: string, acceptedAt: number, deliveredAt: number | null): MessageTruth {
  return {
    to,
    timeZone,
    category: 'marketing',
    acceptedAt,
    deliveredAt,
    errorCode: deliveredAt === null ? 131049 : null,
    messageId: null,
    wamid: `wamid.${to}.${acceptedAt}`,
  } as MessageTruth;
}

function storyOf(to: string, timeZone: string, times: Array<[number, number | null]>): string {
  const world: WorldOutcome = {
    strategy: 'pacer',
    truth: { messages: times.map(([sent, delivered]) => message(to, timeZone, sent, delivered)) } as unknown as GroundTruth,
    retriesSpent: 0,
    wronglySuppressed: 0,
    seconds: 1,
  };
  const [story] = contactStories([world], LAB_START);
  return story!.story;
}

describe("a contact's story", () => {
  it("counts days on the person's own calendar, so times never run backwards", () => {
    // The run starts at 08:00 UTC: 13:30 in India. Capped at 14:30, retried 12 h later (02:30 the next
    // morning there), delivered a day after that.
    const india = storyOf('919812345678', 'Asia/Kolkata', [
      [LAB_START + HOUR, null],
      [LAB_START + 13 * HOUR, null],
      [LAB_START + 37 * HOUR, LAB_START + 37 * HOUR],
    ]);
    expect(india).toBe(
      'the campaign: capped (131049) on day 1 at 14:30 local; the campaign again: capped (131049) on day 2 at 02:30 local; ' +
        'the campaign again: delivered on day 3 at 02:30 local.',
    );
    // In Mexico City the run starts at 02:00 on day 1; 23 h later it is 01:00 on day 2 there.
    const mexico = storyOf('5215512345678', 'America/Mexico_City', [[LAB_START + 23 * HOUR, null]]);
    expect(mexico).toBe('the campaign: capped (131049) on day 2 at 01:00 local.');
  });

  it("counts UTC calendar days for a time without a zone (the lab's pause notes)", () => {
    expect(when(LAB_START + 15 * HOUR, null, LAB_START)).toBe('day 1 at 23:00 UTC');
    expect(when(LAB_START + 19 * HOUR, null, LAB_START)).toBe('day 2 at 03:00 UTC');
  });
});
