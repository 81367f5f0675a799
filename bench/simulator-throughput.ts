// `npx tsx bench/simulator-throughput.ts [--sends N] [--concurrency C]`: template sends per second
// the simulator sustains on loopback through the Cloud API client. Target: at least 5,000/s.
import { parseArgs } from 'node:util';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { startSimulator } from '../src/adapters/simulator/index.js';
import { VirtualClock } from '../src/ports/clock.js';

const TARGET_PER_SECOND = 5_000;

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

  // Virtual time stands still, so the measurement is the request path alone: the number's own
  // throughput limit is lifted and webhooks stay in memory (no callback URL).
  const clock = new VirtualClock();
  const sim = await startSimulator(
    { seed: 1, population: { size: 20_000 }, rateLimits: { throughputMps: 1e9 }, callbackUrl: null },
    { clock },
  );
  const client = createCloudApiClient({
    baseUrl: sim.url,
    apiVersion: 'v23.0',
    phoneNumberId: sim.config.phoneNumberId,
    accessToken: sim.config.accessToken,
    maxConcurrency: concurrency,
    scheduler: clock,
  });
  const phones = sim.users.map((u) => u.phone);
  let next = 0;
  let accepted = 0;
  const run = async (count: number): Promise<void> => {
    const end = next + count;
    const worker = async (): Promise<void> => {
      while (next < end) {
        const i = next++;
        const result = await client.send({
          type: 'template',
          endpoint: 'messages',
          to: { kind: 'phone', phone: phones[i % phones.length] as string },
          messageId: `bench-${i}`,
          template: { name: i % 2 === 0 ? 'order_update' : 'spring_sale', language: 'en_US' },
        });
        if (result.kind === 'accepted') accepted++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  try {
    await run(warmup);
    accepted = 0;
    const started = process.hrtime.bigint();
    await run(sends);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const perSecond = sends / seconds;
    console.log(
      `simulator throughput: ${Math.round(perSecond)} sends/s ` +
        `(${sends} sends in ${seconds.toFixed(2)} s, concurrency ${concurrency}, ${accepted} accepted; target ${TARGET_PER_SECOND}/s)`,
    );
    return perSecond >= TARGET_PER_SECOND ? 0 : 1;
  } finally {
    await client.close();
    await sim.stop();
  }
}

process.exitCode = await main();
