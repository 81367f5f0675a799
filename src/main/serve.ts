import { openStore } from '../adapters/storage/open-store.js';
import type { Config } from '../config/config.js';
import { systemClock } from '../ports/clock.js';
import { startEngine } from './engine.js';

/** `pacer serve`: the composition root for a real deployment, on real time, until SIGINT/SIGTERM. */
export async function serve(config: Config, out: (line: string) => void): Promise<void> {
  const store = openStore({ databaseUrl: config.storage.databaseUrl ?? undefined, dataDir: config.storage.dataDir });
  const migrated = await store.migrate();
  const engine = await startEngine({
    store, clock: systemClock, policy: config.policy, random: Math.random,
    http: { host: config.http.host, port: config.http.port, appSecrets: config.whatsapp.appSecrets, verifyToken: config.whatsapp.verifyToken, mode: config.mode, logLevel: 'warn' },
    worker: { owner: `serve-${process.pid}`, mps: 80 },
    api: { adminToken: config.http.adminToken, phoneNumberId: config.whatsapp.phoneNumberId },
  });
  out(`Pacer on ${engine.url} (${store.backend}, schema version ${migrated.current}); webhooks at ${engine.url}/webhooks/whatsapp`);
  const { accessToken, phoneNumberId } = config.whatsapp;
  if (accessToken !== null && phoneNumberId !== null) {
    engine.start({ baseUrl: config.whatsapp.apiBaseUrl, apiVersion: config.whatsapp.apiVersion, phoneNumberId, accessToken });
    out(`Dispatching from phone number id ${phoneNumberId} through ${config.whatsapp.apiBaseUrl}.`);
  } else {
    out('WHATSAPP_ACCESS_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set: receiving webhooks only, sending nothing.');
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await engine.stop();
  await store.close();
}
