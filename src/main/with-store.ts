import { openStore } from '../adapters/storage/open-store.js';
import type { Config } from '../config/config.js';
import type { Store } from '../ports/store.js';

/** Opens the configured store for one command (migrating it first unless told not to) and closes it. */
export async function withStore(config: Config, work: (store: Store) => Promise<void>, migrate = true): Promise<void> {
  const store = openStore({
    databaseUrl: config.storage.databaseUrl ?? undefined,
    dataDir: config.storage.dataDir,
    schema: config.storage.schema,
    poolSize: config.storage.poolSize,
  });
  try {
    if (migrate) await store.migrate();
    await work(store);
  } finally {
    await store.close();
  }
}
