// A separate process using the store, for tests of what several processes do at once.
// Usage: node --import tsx test/store-process.ts <migrate|claim> '<openStore options as JSON>' [now]
import { openStore } from '../src/adapters/storage/open-store.js';

async function main(): Promise<void> {
  const [mode, optionsJson = '{}', nowText = '0'] = process.argv.slice(2);
  const store = openStore(JSON.parse(optionsJson) as Parameters<typeof openStore>[0]);
  try {
    // Barrier: the test releases every process at the same moment.
    process.stdout.write('ready\n');
    await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
    if (mode === 'migrate') {
      process.stdout.write(JSON.stringify(await store.migrate()));
      return;
    }
    if (mode === 'claim') {
      // One row per claim, so the processes interleave as much as possible.
      const ids: number[] = [];
      for (;;) {
        const rows = await store.claimDue({ owner: `pid-${process.pid}`, now: Number(nowText), leaseMs: 60_000, limit: 1 });
        if (rows.length === 0) break;
        ids.push(...rows.map((r) => r.id));
      }
      process.stdout.write(JSON.stringify(ids));
      return;
    }
    throw new Error(`unknown mode ${JSON.stringify(mode)}`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
