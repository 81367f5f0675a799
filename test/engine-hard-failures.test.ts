import { describe, expect, it } from 'vitest';
import { templatesPage } from '../src/adapters/http/dashboard/templates-page.js';
import { runDiagnosis } from '../src/app/diagnose.js';
import { NO_DISPATCHER_HERE } from '../src/app/work-signal.js';
import { DAY, HOUR, MINUTE, SECOND } from '../src/core/time.js';
import type { LogFields, Logger } from '../src/ports/logger.js';
import { advanceUntil } from './await-state.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, UTILITY, withRig, type Rig } from './engine-rig.js';

/** Every line the engine logs, by level. */
function recordingLogger(): Logger & { lines: { level: string; message: string; fields: LogFields }[] } {
  const lines: { level: string; message: string; fields: LogFields }[] = [];
  const at =
    (level: string) =>
    (message: string, fields: LogFields = {}) =>
      void lines.push({ level, message, fields });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

async function campaignStatus(rig: Rig, id: number): Promise<string | undefined> {
  return (await rig.store.getCampaign(id))?.status;
}

describe.each(BACKENDS)('failures only an operator can fix, on $name', (backend) => {
  it('a template Meta does not know (132001): the campaign pauses, the template is marked, nothing is retried, the failures count', async () => {
    // The simulator knows only the utility template: every marketing send is refused with 132001.
    const sim = { templates: [{ name: UTILITY, language: 'en_US', category: 'UTILITY' as const, relevance: 0.9 }] };
    await withRig(backend, { mps: 10, sim }, async (rig) => {
      const id = await rig.createCampaign();
      expect((await rig.startCampaign(id)).inserted).toBe(300);
      await advanceUntil(rig, SECOND, 5 * MINUTE, async () => (await campaignStatus(rig, id)) === 'paused');

      const campaign = await rig.store.getCampaign(id);
      expect(campaign?.pauseReason).toContain('132001 Template does not exist');
      expect(campaign?.pauseReason).toContain(`template ${MARKETING}, en_US`);
      // Meta said it has no such approved template: Pacer no longer shows it as approved.
      expect((await rig.store.getTemplateById(rig.marketingTemplateId))?.status).toBe('unknown');

      const refused = rig.sim.groundTruth().syncErrors[132001] ?? 0;
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThanOrEqual(10); // the first pass's batch, nothing after it
      // Two hours later nothing more went out: no retry was ever scheduled.
      await rig.advance(2 * HOUR);
      expect(rig.sim.groundTruth().requests).toBe(refused);
      const rows = await rig.outbox(id);
      const tried = rows.filter((r) => r.lastErrorCode !== null);
      expect(tried).toHaveLength(refused);
      expect(tried.filter((r) => r.status !== 'done' || r.outcome !== 'failed')).toEqual([]);
      expect(rows.filter((r) => r.status === 'queued' && r.lastErrorCode === null)).toHaveLength(300 - refused);

      // Counted where failures are counted: diagnose, the templates page, the failure chart, metrics.
      const { facts, diagnosis } = await runDiagnosis(rig.store, rig.policy, { campaignId: id, since: null, now: rig.clock.now() });
      expect(diagnosis).toMatchObject({ verdict: 'campaign_level', subject: `${MARKETING} (en_US)` });
      expect(facts.failures.find((f) => f.code === 132001)).toMatchObject({ messages: refused, recipients: refused });
      expect(await rig.store.templateOutcomes()).toContainEqual({
        templateId: rig.marketingTemplateId,
        outcome: 'failed',
        code: 132001,
        count: refused,
      });
      const page = String(
        await templatesPage({
          store: rig.store,
          clock: rig.clock,
          policy: rig.policy,
          adminToken: null,
          phoneNumberId: null,
          signal: NO_DISPATCHER_HERE,
        }),
      );
      expect(page).toMatch(new RegExp(`<td class="num">${refused}</td>\\s*<td class="num failure-rate">`));
      // The overview's chart of the last 14 days reads these buckets.
      const buckets = await rig.store.failuresByCode(null, rig.clock.now() - 14 * DAY, DAY);
      expect(buckets.filter((b) => b.code === 132001).reduce((n, b) => n + b.count, 0)).toBe(refused);
      const metrics = await rig.engine.server.inject({ url: '/metrics' });
      expect(metrics.body).toContain(`pacer_outbox_outcomes{outcome="failed"} ${refused}`);
    });
  });

  it('a token Meta refuses (190): the sender stops, /healthz and /metrics say so, the campaign pauses, a warning is logged', async () => {
    const logger = recordingLogger();
    await withRig(backend, { mps: 10, accessToken: 'expired-token-value', logger }, async (rig) => {
      const id = await rig.createCampaign();
      await rig.startCampaign(id);
      await advanceUntil(rig, SECOND, 5 * MINUTE, async () => (await campaignStatus(rig, id)) === 'paused');

      expect((await rig.store.getCampaign(id))?.pauseReason).toContain('190 Access token expired');
      const health = await rig.engine.server.inject({ url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({
        status: 'degraded',
        senders: [{ phoneNumberId: rig.phoneNumberId, state: 'stopped', reason: '190 Access token expired' }],
      });
      const metrics = (await rig.engine.server.inject({ url: '/metrics' })).body;
      expect(metrics).toContain(`pacer_sender_state{phone_number_id="${rig.phoneNumberId}",state="stopped"} 1`);
      expect(metrics).toContain(`pacer_sender_state{phone_number_id="${rig.phoneNumberId}",state="ok"} 0`);

      // The refused batch waits for the fix, held with no time: nothing is retried meanwhile.
      const refused = rig.sim.groundTruth().syncErrors[190] ?? 0;
      expect(refused).toBeGreaterThan(0);
      await rig.advance(2 * HOUR);
      // The simulator answers a bad token before it counts a request: its 190s are all there were.
      expect(rig.sim.groundTruth().syncErrors).toEqual({ 190: refused });
      const held = (await rig.outbox(id)).filter((r) => r.lastErrorCode === 190);
      expect(held).toHaveLength(refused);
      expect(held.filter((r) => r.status !== 'held')).toEqual([]);
      expect(await rig.store.nextWorkAt()).toBeNull();

      const warnings = logger.lines.filter((l) => l.level === 'warn');
      expect(warnings).toContainEqual({
        level: 'warn',
        message: 'sender cannot send: stopped until an operator fixes it',
        fields: { phoneNumberId: rig.phoneNumberId, reason: '190 Access token expired' },
      });
      expect(warnings).toContainEqual(
        expect.objectContaining({ message: 'campaign paused', fields: expect.objectContaining({ campaignId: id }) }),
      );
      // Reported once, not once per refused message.
      expect(warnings.filter((l) => l.message.startsWith('sender cannot send'))).toHaveLength(1);
      const logged = JSON.stringify(logger.lines);
      expect(logged).not.toContain('expired-token-value');
      expect(logged).not.toContain(rig.sim.config.displayPhoneNumber);
      for (const u of rig.sim.users.slice(0, 20)) expect(logged).not.toContain(u.phone);
    });
  });
});
