// The webhook edge alone, for bench/webhook-flood/run.ts: a production-mode server over SQLite in a
// temporary directory, on loopback. Prints its port, then serves until its parent ends it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/adapters/http/build-app.js';
import { openStore } from '../../src/adapters/storage/open-store.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pacer-flood-'));
const store = openStore({ dataDir: dir });
await store.migrate();
const app = await buildApp({
  store,
  clock: { now: () => Date.now() },
  policy: DEFAULT_POLICY,
  logger: false,
  config: {
    appSecrets: ['flood-app-secret'],
    verifyToken: null,
    mode: 'production',
    host: '127.0.0.1',
    adminToken: null,
    phoneNumberId: null,
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address !== null ? address.port : 0}\n`);
const stop = (): void => {
  void app.close().finally(() => {
    void store.close().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
