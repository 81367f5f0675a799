import { stderrLogger } from '../adapters/logging/stderr-logger.js';
import { createTemplateApiClient } from '../adapters/cloud-api/template-api-client.js';
import { openStore } from '../adapters/storage/open-store.js';
import type { Config } from '../config/config.js';
import { systemClock } from '../ports/clock.js';
import { logSenderSync, startSenderSyncLoop } from '../app/sender-sync-loop.js';
import { sendingNumbers } from '../app/sending-numbers.js';
import { syncSenders } from '../app/sync-senders.js';
import { startEngine } from './engine.js';
import { senderAccountsOf } from './sender-accounts.js';

/** A worker applies webhooks the edge left unapplied (it was down, say) this often. */
const WORKER_INBOX_EVERY = 5000;

export interface ServeRole {
  /** `serve`: the public HTTP edge. `worker`: dispatch only, with a loopback health endpoint. */
  role: 'serve' | 'worker';
  /** `serve --no-dispatch`: receive and apply webhooks, leave sending to workers. */
  dispatch: boolean;
}

/**
 * `pacer serve` and `pacer worker`: the composition root for a real deployment, on real time, until
 * SIGINT/SIGTERM. One `serve` takes Meta's webhooks and the API and applies them as they arrive;
 * workers only send, and apply stored webhooks only if some were left unapplied (idempotent, so
 * several may do it).
 */
export async function serve(config: Config, out: (line: string) => void, as: ServeRole = { role: 'serve', dispatch: true }): Promise<void> {
  const { storage } = config;
  const store = openStore({
    databaseUrl: storage.databaseUrl ?? undefined,
    dataDir: storage.dataDir,
    schema: storage.schema,
    poolSize: storage.poolSize,
    applicationName: `pacer ${as.role} ${process.pid}`,
    backgroundCheckpoint: true,
  });
  const migrated = await store.migrate();
  const logger = stderrLogger({ level: config.http.logLevel });
  const { accessToken, businessAccountId } = config.whatsapp;
  // Every number's health from Meta before anything sends: which numbers there are, and their limits.
  const accounts = senderAccountsOf(config);
  if (accounts.length > 0) logSenderSync(logger, await syncSenders({ store, now: () => systemClock.now() }, accounts));
  const numbers = sendingNumbers(config.whatsapp.accounts, await store.listSenders(), config.whatsapp.phoneNumberId);
  const [first, ...others] = numbers;
  const sending = as.dispatch && first !== undefined;
  const phoneNumberId = config.whatsapp.phoneNumberId ?? first?.phoneNumberId ?? null;
  // The edge syncs templates; workers only send with what it stored.
  const syncing = as.role === 'serve' && accessToken !== null && businessAccountId !== null;
  const engine = await startEngine({
    store,
    clock: systemClock,
    policy: config.policy,
    random: Math.random,
    logger,
    http: {
      host: as.role === 'worker' ? '127.0.0.1' : config.http.host,
      port: as.role === 'worker' ? config.worker.port : config.http.port,
      appSecrets: config.whatsapp.appSecrets,
      verifyToken: config.whatsapp.verifyToken,
      mode: config.mode,
      logLevel: config.http.logLevel,
      edge: config.edge,
    },
    worker: { owner: `${as.role}-${process.pid}`, mps: config.worker.mps, leaseMs: config.worker.leaseMs },
    api: { adminToken: config.http.adminToken, phoneNumberId, idempotencyTtlMs: config.http.idempotencyTtlMs },
    ...(sending
      ? {
          cloudApi: {
            baseUrl: config.whatsapp.apiBaseUrl,
            apiVersion: config.whatsapp.apiVersion,
            phoneNumberId: first.phoneNumberId,
            accessToken: first.accessToken,
            otherNumbers: others,
          },
        }
      : {}),
    ...(as.role === 'worker' ? { inboxEveryMs: WORKER_INBOX_EVERY } : {}),
    ...(syncing
      ? {
          templateSync: {
            api: createTemplateApiClient({ baseUrl: config.whatsapp.apiBaseUrl, apiVersion: config.whatsapp.apiVersion, accessToken }),
            wabaId: businessAccountId,
            everyMs: config.templates.syncEveryMs,
          },
        }
      : {}),
  });
  out(
    as.role === 'worker'
      ? `Pacer worker ${process.pid} (${store.backend}, schema version ${migrated.current}); health at ${engine.url}/healthz`
      : `Pacer on ${engine.url} (${store.backend}, schema version ${migrated.current}); webhooks at ${engine.url}/webhooks/whatsapp; dashboard at ${engine.url}/`,
  );
  if (!as.dispatch) out('Not dispatching (--no-dispatch): workers send.');
  else if (sending)
    out(
      numbers.length === 1
        ? `Dispatching from phone number id ${first.phoneNumberId} through ${config.whatsapp.apiBaseUrl}.`
        : `Dispatching from ${numbers.length} numbers (${numbers.map((n) => n.phoneNumberId).join(', ')}) through ${config.whatsapp.apiBaseUrl}.`,
    );
  else
    out(
      'No number to send from (WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID, or PACER_ACCOUNTS_FILE): receiving webhooks only, sending nothing.',
    );
  const senderSync =
    accounts.length === 0 ? null : startSenderSyncLoop({ store, scheduler: systemClock, logger }, accounts, config.senders.syncEveryMs);
  if (syncing)
    out(`Syncing templates from business account ${businessAccountId}${config.templates.syncEveryMs === null ? ' at start' : ''}.`);
  else if (as.role === 'serve')
    out('WHATSAPP_BUSINESS_ACCOUNT_ID or WHATSAPP_ACCESS_TOKEN is not set: templates are not synced from Meta.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await senderSync?.stop();
  await Promise.all(accounts.map((a) => a.api.close()));
  await engine.stop();
  await store.close();
}
