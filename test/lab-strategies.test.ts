import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MessageTruth } from '../src/adapters/simulator/index.js';
import { DAY, HOUR, MINUTE } from '../src/core/time.js';
import { defaultDemoPlan } from '../src/main/demo/demo-plan.js';
import { demoSimulator, LAB_START } from '../src/main/demo/run-lab.js';
import { runPeerWorld, type PeerResult } from '../src/main/demo/peer-world.js';
import { runWorld } from '../src/main/demo/run-world.js';
import { pickStrategies, STRATEGIES, type PeerStrategy } from '../src/main/demo/strategies.js';

// Each strategy on the same small world; what it did is read from the simulator's ground truth.
const plan = defaultDemoPlan(400);
const simulator = demoSimulator(plan);
const dir = mkdtempSync(path.join(tmpdir(), 'pacer-lab-strategies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const peer = (name: string) => STRATEGIES.find((s): s is PeerStrategy => s.kind === 'peer' && s.name === name)!;
const runPeer = (name: string) => runPeerWorld(peer(name), plan, simulator, LAB_START, () => undefined);

/** Every accepted attempt of each message, oldest first (a message's resends carry its id). */
function attempts(messages: readonly MessageTruth[]): MessageTruth[][] {
  const by = new Map<string, MessageTruth[]>();
  for (const m of messages) {
    const id = m.messageId ?? m.wamid;
    by.set(id, [...(by.get(id) ?? []), m]);
  }
  return [...by.values()].map((a) => a.sort((x, y) => x.acceptedAt - y.acceptedAt));
}

/** The gaps between consecutive attempts of one message. */
const gaps = (a: readonly MessageTruth[]) => a.slice(1).map((m, i) => m.acceptedAt - a[i]!.acceptedAt);

/** A timed resend goes out when due, within the queue's pace (the small world's queue is short). */
const PACE = 10_000;
/** "At once" is when the failure arrives: Meta reports it seconds, under load a minute or two, after accepting the send. */
const AT_ONCE = 5 * MINUTE;
/** After that, nothing is sent to a dropped contact. */
const SLACK = AT_ONCE;

function expectRetriesAt(r: PeerResult, delays: readonly number[]): MessageTruth[][] {
  const all = attempts(r.truth.messages);
  for (const a of all) {
    expect(a.length).toBeLessThanOrEqual(delays.length + 1);
    gaps(a).forEach((g, j) => {
      expect(g).toBeGreaterThanOrEqual(delays[j]!);
      expect(g).toBeLessThan(delays[j]! + (delays[j] === 0 ? AT_ONCE : PACE));
    });
    // Only a failure is resent.
    for (const m of a.slice(0, -1)) expect(m.status).toBe('failed');
  }
  return all;
}

describe('the peer strategies do what their sources document', () => {
  it('resend-at-once-drop-after-2 resends at once, twice at most, then drops the contact for good', async () => {
    const r = await runPeer('resend-at-once-drop-after-2');
    const all = expectRetriesAt(r, [0, 0]);
    expect(all.some((a) => a.length === 3)).toBe(true);
    expect(r.retriesSpent).toBeGreaterThan(0);
    for (const a of all) {
      const last = a[a.length - 1]!;
      if (a.length < 3 || last.status !== 'failed') continue;
      // Dropped: nothing accepted for that person after the third failure.
      expect(r.truth.messages.filter((m) => m.to === last.to && m.acceptedAt > last.acceptedAt + SLACK)).toEqual([]);
    }
    expect(r.suppressed.size).toBeGreaterThan(0);
  });

  it('send-once never resends', async () => {
    const r = await runPeer('send-once');
    for (const a of attempts(r.truth.messages)) expect(a).toHaveLength(1);
    expect(r.retriesSpent).toBe(0);
    expect(r.suppressed.size).toBe(0);
    expect(r.truth.messages.some((m) => m.errorCode === 131049)).toBe(true);
  });

  it('retry-12-24-48h resends 12 h, then 24 h, then 48 h after each failure, and no more', async () => {
    const r = await runPeer('retry-12-24-48h');
    const all = expectRetriesAt(r, [12 * HOUR, 24 * HOUR, 48 * HOUR]);
    // Marketing to US numbers always fails, so every step of the schedule is taken.
    expect(all.some((a) => a.length === 4)).toBe(true);
    expect(r.suppressed.size).toBe(0);
  });

  it('retry-daily-7d resends once a day, up to seven times', async () => {
    const r = await runPeer('retry-daily-7d');
    const all = expectRetriesAt(
      r,
      Array.from({ length: 7 }, () => DAY),
    );
    // A week of simulated days holds six daily resends of the campaign.
    expect(Math.max(...all.map((a) => a.length))).toBeGreaterThanOrEqual(6);
  });

  it('bounce-blacklist suppresses a contact at its first 131049 and never sends it anything again, order updates included', async () => {
    const r = await runPeer('bounce-blacklist');
    expect(r.retriesSpent).toBe(0);
    const firstCap = new Map<string, number>();
    for (const m of r.truth.messages)
      if (m.errorCode === 131049 && m.acceptedAt < (firstCap.get(m.to) ?? Infinity)) firstCap.set(m.to, m.acceptedAt);
    expect(firstCap.size).toBeGreaterThan(0);
    for (const [to, at] of firstCap) {
      // The failure is known seconds after the send; anything accepted after that would be a send to a blacklisted contact.
      expect(r.truth.messages.filter((m) => m.to === to && m.acceptedAt > at + SLACK)).toEqual([]);
    }
    expect(r.suppressed.size).toBe(firstCap.size);
    expect(r.utilitySkippedForSuppression).toBeGreaterThan(0);
  });

  it('pause-campaign-24-48h pauses the whole campaign 24 h, then 48 h, on a 131049 wave, and resends the failed once after', async () => {
    const r = await runPeer('pause-campaign-24-48h');
    expect(r.pauses.length).toBeGreaterThanOrEqual(1);
    r.pauses.forEach((p, i) => expect(p.to - p.from).toBe(i === 0 ? DAY : 2 * DAY));
    const campaign = r.truth.messages.filter((m) => m.category === 'marketing');
    for (const p of r.pauses) expect(campaign.filter((m) => m.acceptedAt >= p.from && m.acceptedAt < p.to)).toEqual([]);
    const all = attempts(campaign);
    const resent = all.filter((a) => a.length === 2);
    expect(resent.length).toBeGreaterThan(0);
    for (const a of all) expect(a.length).toBeLessThanOrEqual(2);
    for (const [first, again] of resent) {
      expect(first!.errorCode).toBe(131049);
      // Resent when a pause ended, not before.
      expect(r.pauses.some((p) => first!.acceptedAt < p.from && again!.acceptedAt >= p.to)).toBe(true);
    }
  });
});

describe("Pacer's strategies", () => {
  it('pacer waits at least 24 h before resending a 131049; pacer-12h resends after 12 h', async () => {
    const gapsOf = async (name: string) => {
      const [s] = pickStrategies(name);
      const o = await runWorld(s!, plan, simulator, LAB_START, { outDir: dir, logErrors: false, progress: () => undefined });
      return attempts(o.truth.messages.filter((m) => m.category === 'marketing')).flatMap((a) =>
        a.slice(1).flatMap((m, i) => (a[i]!.errorCode === 131049 ? [m.acceptedAt - a[i]!.acceptedAt] : [])),
      );
    };
    const byDefault = await gapsOf('pacer');
    expect(byDefault.length).toBeGreaterThan(0);
    for (const g of byDefault) expect(g).toBeGreaterThanOrEqual(24 * HOUR);
    const preset = await gapsOf('pacer-12h');
    expect(preset.length).toBeGreaterThan(0);
    for (const g of preset) expect(g).toBeGreaterThanOrEqual(12 * HOUR);
    expect(preset.some((g) => g < 24 * HOUR)).toBe(true);
  });
});

describe('picking strategies', () => {
  it('takes names in order, or all, and names an unknown or repeated one with the known ones', () => {
    expect(pickStrategies('send-once,pacer').map((s) => s.name)).toEqual(['send-once', 'pacer']);
    expect(pickStrategies('all')).toHaveLength(STRATEGIES.length);
    expect(() => pickStrategies('pacer,retry-forever')).toThrow(/unknown strategy "retry-forever"; known: pacer, pacer-12h, .*, or all/);
    expect(() => pickStrategies('pacer,pacer')).toThrow(/"pacer" is named twice/);
    expect(() => pickStrategies(' , ')).toThrow(/names no strategy/);
  });
});
