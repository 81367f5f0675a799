import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCloudApiClient } from '../../adapters/cloud-api/cloud-api-client.js';
import { createTemplateApiClient } from '../../adapters/cloud-api/template-api-client.js';
import {
  startSimulator,
  type GroundTruth,
  type Simulator,
  type SimulatorConfigInput,
  type SimUser,
} from '../../adapters/simulator/index.js';
import { DEFAULT_POLICY } from '../../core/policy.js';
import { parseMetaTemplate, type MetaTemplate } from '../../core/template-definition.js';
import { renderParameters, type SendComponent } from '../../core/template-parameters.js';
import { demoAttributes, ORDER_UPDATE_PARAMETERS, SPRING_SALE_PARAMETERS } from './demo-content.js';
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

type SendResult = { accepted: string } | 'refused' | null;

export interface NaiveResult {
  truth: GroundTruth;
  retriesSpent: number;
  suppressed: Set<number>;
  /** Utility messages never attempted because the contact had been suppressed. */
  utilitySkippedForSuppression: number;
}

/** The account's templates, as any sender reads them before filling them in. */
async function listTemplates(sim: Simulator): Promise<Map<string, MetaTemplate>> {
  const api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: sim.config.accessToken });
  const answer = await api.listTemplates(sim.config.wabaId);
  await api.close();
  if (answer.kind !== 'ok') throw new Error('naive demo: listing templates failed');
  const out = new Map<string, MetaTemplate>();
  for (const raw of answer.page.data) {
    const parsed = parseMetaTemplate(raw);
    if (parsed.ok) out.set(parsed.template.name, parsed.template);
  }
  return out;
}

/** The same values Pacer sends (a naive sender personalises too: what differs is what it does with failures). */
function componentsFor(templates: ReadonlyMap<string, MetaTemplate>, job: Job, user: SimUser): { components?: SendComponent[] } {
  const t = templates.get(job.template);
  if (t === undefined) return {};
  const mapping = job.category === 'marketing' ? SPRING_SALE_PARAMETERS : ORDER_UPDATE_PARAMETERS;
  const r = renderParameters(
    t.definition,
    t.category,
    mapping,
    { name: null, attributes: demoAttributes(user, job.user) },
    {
      stopButtons: DEFAULT_POLICY.stopButtons,
    },
  );
  return r.ok ? { components: r.components } : {};
}

export async function runNaiveWorld(
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  progress: (day: number) => void,
): Promise<NaiveResult> {
  const clock = new VirtualClock(start);
  const sender = new NaiveSender(clock, plan.mps);
  const receiver = await listen((body) => sender.onWebhook(body));
  const sim = await startSimulator({ ...simulator, callbackUrl: receiver.url }, { clock });
  const api = createCloudApiClient({
    baseUrl: sim.url,
    apiVersion: 'v24.0',
    phoneNumberId: sim.config.phoneNumberId,
    accessToken: sim.config.accessToken,
    maxConcurrency: 32,
  });
  const users = sim.users;
  const templates = await listTemplates(sim);
  sender.sendWith(async (job) => {
    const user = users[job.user];
    if (user === undefined) return null;
    const result = await api.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone: user.phone },
      messageId: `naive:${job.user}`,
      template: { name: job.template, language: job.language, ...componentsFor(templates, job, user) },
    });
    return result.kind === 'accepted' ? { accepted: result.wamid } : 'refused';
  });

  clock.at(start + plan.marketing.at, () => {
    users.forEach((_, i) => {
      if (inShare(i, 1, plan.marketingOptIn))
        sender.enqueue({
          user: i,
          template: plan.marketing.template,
          language: plan.marketing.language,
          category: 'marketing',
          retries: 0,
        });
    });
    sender.wake();
  });
  plan.utility.forEach((u, k) =>
    clock.at(start + u.at, () => {
      users.forEach((_, i) => {
        if (!inShare(i, 100 + k, u.share)) return;
        if (sender.suppressed.has(i)) sender.utilitySkippedForSuppression++;
        else sender.enqueue({ user: i, template: u.template, language: u.language, category: 'utility', retries: 0 });
      });
      sender.wake();
    }),
  );

  for (let day = 1; day <= plan.days; day++) {
    await sim.advance(24 * 3600 * SECOND);
    progress(day);
  }
  const truth = sim.groundTruth();
  await api.close();
  await sim.stop();
  await receiver.close();
  return {
    truth,
    retriesSpent: sender.retriesSpent,
    suppressed: sender.suppressed,
    utilitySkippedForSuppression: sender.utilitySkippedForSuppression,
  };
}

/** The naive sender's queue, sent at the number's throughput each second, and whom it gave up on. */
class NaiveSender {
  readonly suppressed = new Set<number>();
  retriesSpent = 0;
  utilitySkippedForSuppression = 0;
  private readonly queue: Job[] = [];
  private readonly byWamid = new Map<string, Job>();
  private ticking = false;
  /** Sends one job: the wamid when accepted, `refused`, or null when there is nobody to send to. */
  private send: (job: Job) => Promise<SendResult> = () => Promise.resolve(null);

  constructor(
    private readonly clock: VirtualClock,
    private readonly mps: number,
  ) {}

  sendWith(send: (job: Job) => Promise<SendResult>): void {
    this.send = send;
  }

  enqueue(job: Job): void {
    this.queue.push(job);
  }

  onWebhook(body: unknown): void {
    for (const item of parseWebhook(body).items) {
      if (item.kind !== 'status' || item.status !== 'failed') continue;
      const job = this.byWamid.get(item.messageId);
      if (job !== undefined) {
        this.byWamid.delete(item.messageId);
        this.retry(job);
      }
    }
  }

  wake(): void {
    if (this.ticking || this.queue.length === 0) return;
    this.ticking = true;
    this.clock.at(this.clock.now(), () => this.tick());
  }

  private retry(job: Job): void {
    if (job.retries >= MAX_IMMEDIATE_RETRIES) {
      this.suppressed.add(job.user); // "unreachable": never messaged again
      return;
    }
    this.retriesSpent++;
    this.queue.unshift({ ...job, retries: job.retries + 1 });
    this.wake();
  }

  private async tick(): Promise<void> {
    const batch = this.queue.splice(0, this.mps);
    await Promise.all(
      batch.map(async (job) => {
        const sent = await this.send(job);
        if (sent === 'refused') this.retry(job);
        else if (sent !== null) this.byWamid.set(sent.accepted, job);
      }),
    );
    if (this.queue.length > 0) this.clock.at(this.clock.now() + SECOND, () => this.tick());
    else this.ticking = false;
  }
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
