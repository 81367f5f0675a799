// `npx tsx bench/simulator-throughput.ts [--sends N] [--concurrency C]`: template sends per second
// the simulator sustains on loopback through the Cloud API client. Target: at least 5,000/s.
// `npm run bench -- simulator-throughput` measures the same beside raw undici POSTs (bench/figures).
import { parseArgs } from 'node:util';
import { sendThroughClient, startSimulatorRig } from './fixtures/simulator-rig.js';
import { SIMULATOR_TARGET_PER_SECOND as TARGET_PER_SECOND } from './figures/simulator-throughput.js';

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got "${text}"`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { sends: { type: 'string' }, concurrency: { type: 'string' } } });
  const sends = positiveInt('--sends', values.sends, 40_000);
  const concurrency = positiveInt('--concurrency', values.concurrency, 64);
  const warmup = Math.min(2_000, sends);
  const rig = await startSimulatorRig(concurrency);
  try {
    await sendThroughClient(rig, 0, warmup);
    const started = process.hrtime.bigint();
    const { accepted } = await sendThroughClient(rig, warmup, sends);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const perSecond = sends / seconds;
    console.log(
      `simulator throughput: ${Math.round(perSecond)} sends/s ` +
        `(${sends} sends in ${seconds.toFixed(2)} s, concurrency ${concurrency}, ${accepted} accepted; target ${TARGET_PER_SECOND}/s)`,
    );
    return perSecond >= TARGET_PER_SECOND ? 0 : 1;
  } finally {
    await rig.close();
  }
}

process.exitCode = await main();
