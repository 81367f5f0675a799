// Probe (not a figure): statements sent to PostgreSQL per send of a dispatch pass and per status
// payload applied from the inbox. Usage: npx tsx bench/probe/round-trips.ts [sends]
import pg from 'pg';
import { createCloudApiClient } from '../../src/adapters/cloud-api/cloud-api-client.js';
import { webhookBody, type StatusObject } from '../../src/adapters/simulator/payloads.js';
import { seededRandom } from '../../src/adapters/simulator/prng.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { parseWebhook } from '../../src/adapters/webhook/parse-webhook.js';
import { Dispatcher } from '../../src/app/dispatcher.js';
import { processInbox } from '../../src/app/process-inbox.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DAY, MINUTE } from '../../src/core/time.js';
import { systemClock } from '../../src/ports/clock.js';
import { API_VERSION, queueSends, seedWorld, startSimulatorProcess } from '../fixtures/dispatch-rig.js';

const DATABASE_URL = process.env.PACER_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sends = Number(process.argv[2] ?? 2000);
let count = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  count++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const schema = `pacer_probe_${process.pid}`;
const sim = await startSimulatorProcess(sends);
const store = openStore({ databaseUrl: DATABASE_URL, schema });
try {
  await store.migrate();
  const world = await seedWorld(store, sim, DEFAULT_POLICY, systemClock.now(), 1_000);
  await sim.advance(DAY);
  await queueSends(store, world, 'probe', 0, sends, systemClock.now());
  const api = createCloudApiClient({
    baseUrl: sim.url,
    apiVersion: API_VERSION,
    phoneNumberId: sim.phoneNumberId,
    accessToken: sim.accessToken,
    capCodes: DEFAULT_POLICY.capCodes,
    maxConcurrency: 32,
  });
  const dispatcher = new Dispatcher(
    { store, api, policy: DEFAULT_POLICY, clock: systemClock, random: seededRandom(1) },
    { owner: 'probe', phoneNumberId: sim.phoneNumberId, mps: 1e9, leaseMs: MINUTE, batchSize: 1_000 },
  );
  count = 0;
  let sent = 0;
  let t0 = performance.now();
  for (;;) {
    const r = await dispatcher.tick();
    if (r.claimed === 0) break;
    sent += r.sent;
  }
  const dispatchMs = performance.now() - t0;
  console.log(
    `dispatch: ${sent} sent, ${count} statements, ${(count / sent).toFixed(2)} per send, ${((sent / dispatchMs) * 1000).toFixed(0)} sends/s`,
  );
  await api.close();

  const reader = new pg.Client({ connectionString: DATABASE_URL });
  await reader.connect();
  const rows = (
    await reader.query(
      `SELECT o.id, o.wamid, c.phone_e164 AS phone FROM ${schema}.outbox o JOIN ${schema}.contacts c ON c.id = o.contact_id WHERE o.wamid IS NOT NULL`,
    )
  ).rows as Array<{ id: number; wamid: string | null; phone: string }>;
  await reader.end();
  const who = { wabaId: '1', phoneNumberId: sim.phoneNumberId, displayPhoneNumber: '15550100' };
  const now = Math.floor(Date.now() / 1000);
  const bodies = [];
  for (const step of ['delivered', 'read'] as const)
    for (const r of rows) {
      if (r.wamid === null) continue;
      const status: StatusObject = {
        id: r.wamid,
        status: step,
        timestamp: String(now + (step === 'read' ? 2 : 1)),
        recipient_id: r.phone.replace('+', ''),
        biz_opaque_callback_data: `pacer:${r.id}`,
        pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
      };
      bodies.push({
        raw: Buffer.from(JSON.stringify(webhookBody(who, [{ kind: 'status', status }]))),
        receivedAt: Date.now(),
        signatureOk: true,
      });
    }
  await store.appendInboxBatch(bodies);
  count = 0;
  t0 = performance.now();
  let applied = 0;
  for (;;) {
    const r = await processInbox({ store, policy: DEFAULT_POLICY, clock: systemClock, random: seededRandom(2), parse: parseWebhook });
    if (r.rows === 0) break;
    applied += r.rows;
  }
  const inboxMs = performance.now() - t0;
  console.log(
    `inbox: ${applied} payloads, ${count} statements, ${(count / applied).toFixed(2)} per payload, ${((applied / inboxMs) * 1000).toFixed(0)} payloads/s`,
  );
} finally {
  await store.close();
  await sim.stop();
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
