import { stderrLogger } from '../adapters/logging/stderr-logger.js';
import { createTemplateApiClient } from '../adapters/cloud-api/template-api-client.js';
import { openStore } from '../adapters/storage/open-store.js';
import type { Config } from '../config/config.js';
import { systemClock } from '../ports/clock.js';
import { startEngine } from './engine.js';

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
  const { accessToken, phoneNumberId, businessAccountId } = config.whatsapp;
  const sending = as.dispatch && accessToken !== null && phoneNumberId !== null;
  // The edge syncs templates; workers only send with what it stored.
  const syncing = as.role === 'serve' && accessToken !== null && businessAccountId !== null;
  const engine = await startEngine({
    store,
    clock: systemClock,
    policy: config.policy,
    random: Math.random,
    logger: stderrLogger({ level: config.http.logLevel }),
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
    api: { adminToken: config.http.adminToken, phoneNumberId },
    ...(sending
      ? { cloudApi: { baseUrl: config.whatsapp.apiBaseUrl, apiVersion: config.whatsapp.apiVersion, phoneNumberId, accessToken } }
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
  else if (sending) out(`Dispatching from phone number id ${phoneNumberId} through ${config.whatsapp.apiBaseUrl}.`);
  else out('WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: receiving webhooks only, sending nothing.');
  if (syncing)
    out(`Syncing templates from business account ${businessAccountId}${config.templates.syncEveryMs === null ? ' at start' : ''}.`);
  else if (as.role === 'serve')
    out('WHATSAPP_BUSINESS_ACCOUNT_ID or WHATSAPP_ACCESS_TOKEN is not set: templates are not synced from Meta.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await engine.stop();
  await store.close();
}
