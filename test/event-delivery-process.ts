// A process that records outbound events and delivers them, for the crash test: the test kills it
// with SIGKILL and starts it again. Usage:
//   node --import tsx test/event-delivery-process.ts '<openStore options as JSON>' <events to record> <contacts>
// It records in transactions of 10, printing `recorded N` after each commit, while its delivery loop runs.
import { openStore } from '../src/adapters/storage/open-store.js';
import { createWebhookSender } from '../src/adapters/event-webhooks/webhook-sender.js';
import { startEventDeliveryLoop } from '../src/app/event-delivery-loop.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';

const [optionsJson = '{}', countText = '0', contactsText = '1'] = process.argv.slice(2);
// The loop's timers do not hold a process open (serve's HTTP server does): this one runs until killed.
setInterval(() => undefined, 60_000);
const store = openStore(JSON.parse(optionsJson) as Parameters<typeof openStore>[0]);
const sender = createWebhookSender({ timeoutMs: 60_000 });
// A short claim so that a killed process's claims come back within the test; requests may hang longer.
startEventDeliveryLoop(
  { store, sender, scheduler: systemClock, logger: silentLogger, random: Math.random },
  { owner: `pid-${process.pid}`, concurrency: 4, leaseMs: 1500, pollMs: 50, retry: { firstMs: 50, maxMs: 200, giveUpAfterMs: 600_000 } },
);
const count = Number(countText);
const contacts = Number(contactsText);
for (let n = 1; n <= count; n += 10) {
  const batch = Array.from({ length: Math.min(10, count - n + 1) }, (_, i) => {
    const k = n + i;
    const contactId = (k % contacts) + 1;
    return {
      type: 'message.delivered' as const,
      occurredAt: Date.now(),
      contactId,
      campaignId: null,
      phoneNumberId: null,
      data: { n: k, contactId },
    };
  });
  await store.transaction((tx) => tx.recordOutboundEvents(batch, Date.now()));
  process.stdout.write(`recorded ${n + batch.length - 1}\n`);
}
process.stdout.write('delivering\n');
