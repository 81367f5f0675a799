import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/adapters/storage/migrations.js';
import type { OpenStoreOptions } from '../src/adapters/storage/open-store.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

interface Child {
  ready: Promise<void>;
  go(): void;
  output: Promise<string>;
}

/** One process; it prints `ready` once its store is open and starts when told `go`. */
function start(mode: string, options: OpenStoreOptions, now: number): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/store-process.ts', mode, JSON.stringify(options), String(now)], {
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const output = once(child, 'close').then(([code]) => {
    if (code !== 0) throw new Error(`store process exited ${String(code)}: ${err}`);
    return out.replace(/^ready\n/, '');
  });
  // A child that dies before it is ready must not leave the barrier waiting.
  void output.catch(() => markReady());
  return { ready, go: () => child.stdin.end('go\n'), output };
}

/** Starts `count` processes, lets them all open their store, then releases them together. */
async function processes(count: number, mode: string, options: OpenStoreOptions, now = 0): Promise<string[]> {
  const children = Array.from({ length: count }, () => start(mode, options, now));
  await Promise.all(children.map((c) => c.ready));
  for (const child of children) child.go();
  return Promise.all(children.map((c) => c.output));
}

describe.each(BACKENDS)('Store across processes ($name)', (backend) => {
  it('migrates once when several processes start at the same time', async () => {
    const place = backend.place();
    const results = (await processes(3, 'migrate', place.options)).map((out) => JSON.parse(out) as { applied: number[] });
    const all = MIGRATIONS.map((m) => m.version);
    expect(results.map((r) => r.applied).sort((a, b) => a.length - b.length)).toEqual([[], [], all]);
    expect(await place.open().migrate()).toEqual({ applied: [], current: all.length });
  });

  it('never hands one outbox row to two processes claiming together', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    const seed = await seedCampaign(store, T0, 120);
    await store.insertOutbox(
      seed.rows(() => T0),
      T0,
    );
    const claimed = (await processes(3, 'claim', place.options, T0)).flatMap((out) => JSON.parse(out) as number[]);
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });
});
