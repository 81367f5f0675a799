import { MINUTE, SECOND, type Millis } from '../src/core/time.js';
import type { Harness } from './simulator-harness.js';

export interface SenderOptions {
  /** How long after learning of a failure the sender tries again (0 = at its next step). */
  retryAfterMs: Millis;
  maxAttempts: number;
  durationMs: Millis;
  stepMs?: Millis;
  template?: string;
}

/**
 * A campaign driver for tests: one marketing message per user, paced under the number's
 * throughput, and a retry of each failed message after `retryAfterMs`. Everything happens between
 * clock advances, so the run is deterministic.
 */
export async function runCampaign(h: Harness, phones: readonly string[], options: SenderOptions): Promise<void> {
  const step = options.stepMs ?? 5 * MINUTE;
  const template = options.template ?? 'spring_sale';
  const attempts = new Map<string, number>();
  const due: Array<{ at: Millis; phone: string; key: string }> = [];
  const seenFailures = new Set<string>();
  const send = async (phone: string, key: string): Promise<void> => {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    await h.client.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone },
      messageId: `${key}#${n}`,
      template: { name: template, language: 'en_US' },
    });
  };
  for (let i = 0; i < phones.length; i++) {
    await send(phones[i]!, `c-${i}`);
    if (i % 50 === 49) await h.sim.advance(SECOND); // stays under the number's 80 messages per second
  }
  const end = h.clock.now() + options.durationMs;
  while (h.clock.now() < end) {
    await h.sim.advance(step);
    for (const s of h.receiver.statuses()) {
      if (s.status !== 'failed' || s.biz_opaque_callback_data === undefined || seenFailures.has(s.biz_opaque_callback_data)) continue;
      seenFailures.add(s.biz_opaque_callback_data);
      const key = s.biz_opaque_callback_data.split('#')[0]!;
      if ((attempts.get(key) ?? 0) < options.maxAttempts) {
        due.push({ at: h.clock.now() + options.retryAfterMs, phone: s.recipient_id, key });
      }
    }
    const now = h.clock.now();
    const ready = due.filter((d) => d.at <= now);
    for (const [i, d] of ready.entries()) {
      due.splice(due.indexOf(d), 1);
      await send(d.phone, d.key);
      if (i % 50 === 49) await h.sim.advance(SECOND);
    }
  }
}
