import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroundTruth, MessageTruth } from '../../src/adapters/simulator/index.js';
import { MINUTE } from '../../src/core/time.js';
import { seededRandom } from '../../src/adapters/simulator/prng.js';
import type { OutboxOutcome, OutboxRow } from '../../src/ports/store.js';
import { eventually } from '../await-state.js';
import {
  campaignRows,
  inboxRows,
  killHard,
  setUpCrashWorld,
  startServe,
  statusCounts,
  stopGracefully,
  type CrashWorld,
  type ServeProcess,
} from '../crash-rig.js';
import { attemptsByRow, isFinalOrScheduled } from '../engine-rig.js';

const SEED = 4242;
const KILLS = 5;
const RECIPIENTS = 1000;
/** The dispatcher's lease in `pacer serve`. */
const LEASE_MS = MINUTE;

let world: CrashWorld | null = null;
let running: ServeProcess | null = null;
let dir = '';

afterEach(async () => {
  if (running) await killHard(running);
  running = null;
  await world?.close();
  world = null;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The outcome a message really reached. From its timestamps: on real time a `sent` timer may fire
 * after `delivered` (both a millisecond out), so the simulator's `status` field can step back.
 */
function truthOutcome(m: MessageTruth): OutboxOutcome | null {
  if (m.status === 'failed') return 'failed';
  if (m.readAt !== null) return 'read';
  if (m.deliveredAt !== null) return 'delivered';
  return m.status === 'sent' ? 'accepted' : null;
}

/** What still differs between the outbox and what really happened to the messages that went out. */
function differences(rows: readonly OutboxRow[], truth: GroundTruth): string[] {
  const attempts = attemptsByRow(truth.messages);
  const out: string[] = [];
  for (const row of rows) {
    const sends = attempts.get(row.id) ?? [];
    const last = sends[sends.length - 1];
    if (last === undefined) continue;
    if (row.wamid !== last.wamid || row.outcome !== truthOutcome(last))
      out.push(`row ${row.id}: ${row.status}/${row.outcome ?? '-'}, the simulator says ${truthOutcome(last) ?? 'nothing yet'}`);
  }
  return out;
}

describe('pacer serve sending from two numbers, stopped and killed (SIGKILL) mid-campaign, and started again each time', () => {
  it('sends no campaign message twice, and every row ends final, scheduled or unknown', async () => {
    const deadline = Date.now() + 42_000;
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-crash-'));
    // Meta answers a send in tens to hundreds of milliseconds: kills land while requests are in flight.
    const network = seededRandom(SEED + 1);
    // Two numbers of one account (from PACER_ACCOUNTS_FILE and a sender sync at each start), the
    // campaign's recipients spread over them.
    world = await setUpCrashWorld(dir, {
      seed: SEED,
      population: 1200,
      recipients: RECIPIENTS,
      apiDelayMs: () => 50 + network() * 400,
      numbers: 2,
    });
    const random = seededRandom(SEED);

    // First a graceful stop while its first batch is in flight: it finishes what it started.
    running = await startServe(world, deadline);
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(random() * 200)));
    const termExit = await stopGracefully(running);
    expect(termExit, running.output()).toBe(0);
    running = null;
    const afterTerm = statusCounts(world);
    expect(afterTerm['sent'] ?? 0).toBeGreaterThan(0);
    expect(afterTerm['leased'] ?? 0).toBe(0);
    expect(afterTerm['sending'] ?? 0).toBe(0);

    // Then kill it at random moments while it dispatches; each time start it again on the same port.
    const kills: Array<{ afterMs: number; counts: Record<string, number> }> = [];
    for (let k = 0; k < KILLS; k++) {
      running = await startServe(world, deadline);
      const afterMs = 300 + Math.floor(random() * 500);
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      await killHard(running);
      running = null;
      kills.push({ afterMs, counts: statusCounts(world) });
    }
    // Every kill landed mid-campaign (the last one still left rows to send), and some mid-send.
    expect(kills.at(-1)?.counts['queued'] ?? 0).toBeGreaterThan(0);
    expect(kills.some((k) => (k.counts['sending'] ?? 0) > 0)).toBe(true);

    // Stands in for a lease length of downtime: the next sweep finds every dead worker's lease expired.
    const swept = await world.store.sweepExpiredLeases(Date.now() + LEASE_MS);
    running = await startServe(world, deadline);
    const w = world;
    const busy = (counts: Record<string, number>) => (counts['leased'] ?? 0) + (counts['sending'] ?? 0);
    const drained = await eventually(() => (statusCounts(w)['queued'] ?? 0) + busy(statusCounts(w)) === 0, deadline, 100);
    // Out of time (a slow machine): pause the campaign as an operator would; the rest stays queued.
    if (!drained) await w.store.setCampaignStatus(w.campaignId, 'paused', 'crash test out of time', Date.now());
    // Then let the last statuses come in: a message's whole life (sent, delivered, read, each
    // webhook) takes milliseconds here.
    const settled = await eventually(
      async () => {
        if (busy(statusCounts(w)) > 0) return false;
        const truth = w.sim.groundTruth();
        if (Date.now() - Math.max(...truth.messages.map((m) => m.acceptedAt)) < 500) return false;
        return differences(await campaignRows(w), truth).length === 0;
      },
      Date.now() + 8000,
      100,
    );
    const exitCode = await stopGracefully(running);
    const output = running.output();
    running = null;
    expect(exitCode, output).toBe(0);

    const rows = await campaignRows(world);
    const truth = world.sim.groundTruth();
    const attempts = attemptsByRow(truth.messages);
    const unknown = rows.filter((r) => r.status === 'unknown');
    const sendsOf = (r: OutboxRow) => attempts.get(r.id)?.length ?? 0;
    console.info(
      `crash test: graceful stop left ${JSON.stringify(afterTerm)}; kills after ${kills.map((k) => `${k.afterMs} ms (${JSON.stringify(k.counts)})`).join(', ')}; swept ${JSON.stringify(swept)}; ` +
        `${truth.messages.length} messages accepted; ${unknown.length} rows unknown (sends: ${unknown.map(sendsOf).join(',') || 'none'}); drained: ${drained}, settled: ${settled}`,
    );

    expect(rows).toHaveLength(RECIPIENTS);
    // No row's message went out twice.
    expect(rows.filter((r) => sendsOf(r) > 1).map((r) => `row ${r.id} (${r.status}): ${sendsOf(r)} sends`)).toEqual([]);
    // Rows left unknown never reached Meta: one that did was settled by its status webhook, which
    // carries our callback data. Every other row that is not waiting in the queue got its message.
    expect(unknown.filter((r) => sendsOf(r) > 0).map((r) => r.id)).toEqual([]);
    expect(
      rows
        .filter((r) => sendsOf(r) === 0 && r.status !== 'unknown' && r.status !== 'queued')
        .map((r) => `row ${r.id}: ${r.status}/${r.outcome ?? '-'}`),
    ).toEqual([]);
    // No recipient got this campaign twice, whichever rows the messages came from.
    const byRecipient = new Map<string, number>();
    for (const m of truth.messages) byRecipient.set(m.to, (byRecipient.get(m.to) ?? 0) + 1);
    expect([...byRecipient.values()].filter((n) => n > 1)).toEqual([]);
    expect(truth.messages.every((m) => /^pacer:\d+$/.test(m.messageId ?? ''))).toBe(true);
    // Both numbers sent, and every message went from the number its row belongs to.
    const numberOf = new Map(rows.map((r) => [r.id, (r.intent as { phoneNumberId?: string }).phoneNumberId]));
    expect(new Set(truth.messages.map((m) => m.phoneNumberId))).toEqual(new Set(world.numbers));
    expect(truth.messages.filter((m) => numberOf.get(Number(m.messageId?.slice('pacer:'.length))) !== m.phoneNumberId)).toEqual([]);
    // Every row is final or waits for a time or a window, or is marked unknown; none is stuck mid-send.
    expect(rows.filter((r) => !isFinalOrScheduled(r) && r.status !== 'unknown').map((r) => `row ${r.id}: ${r.status}`)).toEqual([]);
    // Every message that went out is recorded with its real outcome, including those a killed process sent.
    expect(differences(rows, truth)).toEqual([]);

    // Each webhook `pacer serve` acknowledged is in the inbox, byte for byte, and was processed.
    const hop = world.webhooks;
    // The hop's answers on their way back to the simulator arrive within moments.
    await eventually(() => w.sim.groundTruth().webhooks.accepted === hop.acknowledged.length, Date.now() + 2000, 20);
    expect(w.sim.groundTruth().webhooks.accepted).toBe(hop.acknowledged.length);
    const stored = inboxRows(world);
    const inInbox = new Map<string, number>();
    for (const s of stored) inInbox.set(s.raw.toString('base64'), (inInbox.get(s.raw.toString('base64')) ?? 0) + 1);
    const missing = world.webhooks.acknowledged.filter((body) => {
      const key = body.toString('base64');
      const left = inInbox.get(key) ?? 0;
      inInbox.set(key, left - 1);
      return left <= 0;
    });
    expect(missing.length, 'acknowledged webhook bodies missing from the inbox').toBe(0);
    // Stored but never acknowledged happens only when the process died between the commit and the answer.
    expect(stored.length - world.webhooks.acknowledged.length).toBeLessThanOrEqual(world.webhooks.refused);
    expect(stored.filter((s) => !s.processed || s.quarantineReason !== null)).toEqual([]);
  }, 60_000);
});
