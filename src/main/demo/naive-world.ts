import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCloudApiClient } from '../../adapters/cloud-api/cloud-api-client.js';
import { startSimulator, type GroundTruth, type SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { parseWebhook } from '../../adapters/webhook/parse-webhook.js';
import { VirtualClock } from '../../ports/clock.js';
import { SECOND, type Millis } from '../../core/time.js';
import { inShare, type DemoPlan } from './demo-plan.js';

/** A common sender: blast the list, resend every failure at once, drop anyone who fails twice. */
const MAX_IMMEDIATE_RETRIES = 2;

interface Job {
  user: number;
  template: string;
  language: string;
  category: 'marketing' | 'utility';
  retries: number;
}

export interface NaiveResult {
  truth: GroundTruth;
  retriesSpent: number;
  suppressed: Set<number>;
  /** Utility messages never attempted because the contact had been suppressed. */
  utilitySkippedForSuppression: number;
}

export async function runNaiveWorld(plan: DemoPlan, simulator: SimulatorConfigInput, start: Millis, progress: (day: number) => void): Promise<NaiveResult> {
  const clock = new VirtualClock(start);
  const queue: Job[] = [];
  const byWamid = new Map<string, Job>();
  const failures = new Map<number, number>();
  const suppressed = new Set<number>();
  let retriesSpent = 0;
  let utilitySkippedForSuppression = 0;

  const retry = (job: Job) => {
    failures.set(job.user, (failures.get(job.user) ?? 0) + 1);
    if (job.retries >= MAX_IMMEDIATE_RETRIES) {
      suppressed.add(job.user); // "unreachable": never messaged again
      return;
    }
    retriesSpent++;
    queue.unshift({ ...job, retries: job.retries + 1 });
    wake();
  };

  const receiver = await listen((body) => {
    for (const item of parseWebhook(body).items) {
      if (item.kind !== 'status' || item.status !== 'failed') continue;
      const job = byWamid.get(item.messageId);
      if (job !== undefined) {
        byWamid.delete(item.messageId);
        retry(job);
      }
    }
  });
  const sim = await startSimulator({ ...simulator, callbackUrl: receiver.url }, { clock });
  const api = createCloudApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', phoneNumberId: sim.config.phoneNumberId, accessToken: sim.config.accessToken, maxConcurrency: 32 });
  const users = sim.users;

  let ticking = false;
  function wake(): void {
    if (ticking || queue.length === 0) return;
    ticking = true;
    clock.at(clock.now(), tick);
  }
  async function tick(): Promise<void> {
    const batch = queue.splice(0, plan.mps);
    await Promise.all(batch.map(async (job) => {
      const user = users[job.user];
      if (user === undefined) return;
      const result = await api.send({ type: 'template', endpoint: 'messages', to: { kind: 'phone', phone: user.phone }, messageId: `naive:${job.user}`, template: { name: job.template, language: job.language } });
      if (result.kind === 'accepted') byWamid.set(result.wamid, job);
      else retry(job);
    }));
    if (queue.length > 0) clock.at(clock.now() + SECOND, tick);
    else ticking = false;
  }

  clock.at(start + plan.marketing.at, () => {
    users.forEach((_, i) => {
      if (inShare(i, 1, plan.marketingOptIn)) queue.push({ user: i, template: plan.marketing.template, language: plan.marketing.language, category: 'marketing', retries: 0 });
    });
    wake();
  });
  plan.utility.forEach((u, k) => clock.at(start + u.at, () => {
    users.forEach((_, i) => {
      if (!inShare(i, 100 + k, u.share)) return;
      if (suppressed.has(i)) utilitySkippedForSuppression++;
      else queue.push({ user: i, template: u.template, language: u.language, category: 'utility', retries: 0 });
    });
    wake();
  }));

  for (let day = 1; day <= plan.days; day++) {
    await sim.advance(24 * 3600 * SECOND);
    progress(day);
  }
  const truth = sim.groundTruth();
  await api.close();
  await sim.stop();
  await receiver.close();
  return { truth, retriesSpent, suppressed, utilitySkippedForSuppression };
}

async function listen(onBody: (body: unknown) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        onBody(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        // a naive receiver drops what it cannot read
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, close: () => new Promise((r) => server.close(() => r())) };
}
