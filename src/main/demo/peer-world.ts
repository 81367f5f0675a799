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
import type { PeerStrategy } from './strategies.js';
import { consentsOf, hasOrderUpdate, type DemoPlan } from './demo-plan.js';
import { reachableAmong } from './demo-metrics.js';

interface Job {
  /** One message: every resend of it carries the same id (in `biz_opaque_callback_data`). */
  id: string;
  user: number;
  template: string;
  language: string;
  category: 'marketing' | 'utility';
  /** Part of the campaign (which a pause holds back), not an order update. */
  campaign: boolean;
  retries: number;
  /** When this attempt went out: a later resend is timed from it. */
  sentAt: Millis;
}

type SendResult = { accepted: string } | 'refused' | null;

export interface PeerResult {
  truth: GroundTruth;
  retriesSpent: number;
  suppressed: Set<number>;
  /** Suppressed contacts who were in fact reachable. */
  wronglySuppressed: number;
  /** Utility messages never attempted because the contact had been suppressed. */
  utilitySkippedForSuppression: number;
  /** When each campaign pause began and ended. */
  pauses: Array<{ from: Millis; to: Millis }>;
}

/** The account's templates, as any sender reads them before filling them in. */
async function listTemplates(sim: Simulator): Promise<Map<string, MetaTemplate>> {
  const api = createTemplateApiClient({ baseUrl: sim.url, apiVersion: 'v24.0', accessToken: sim.config.accessToken });
  const answer = await api.listTemplates(sim.config.wabaId);
  await api.close();
  if (answer.kind !== 'ok') throw new Error('peer world: listing templates failed');
  const out = new Map<string, MetaTemplate>();
  for (const raw of answer.page.data) {
    const parsed = parseMetaTemplate(raw);
    if (parsed.ok) out.set(parsed.template.name, parsed.template);
  }
  return out;
}

/** The same values Pacer sends (a peer personalises too: what differs is what it does with failures). */
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

/** One peer strategy through the demo's week, on the simulator with the plan's seed. */
export async function runPeerWorld(
  strategy: PeerStrategy,
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: Millis,
  progress: (day: number) => void,
): Promise<PeerResult> {
  const clock = new VirtualClock(start);
  const sender = new PeerSender(clock, plan.mps, strategy);
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
      messageId: job.id,
      template: { name: job.template, language: job.language, ...componentsFor(templates, job, user) },
    });
    return result.kind === 'accepted' ? { accepted: result.wamid } : 'refused';
  });

  clock.at(start + plan.marketing.at, () => {
    users.forEach((_, i) => {
      if (consentsOf(plan, i).marketing)
        sender.enqueue({
          id: `${strategy.name}:campaign:${i}`,
          user: i,
          template: plan.marketing.template,
          language: plan.marketing.language,
          category: 'marketing',
          campaign: true,
          retries: 0,
          sentAt: start,
        });
    });
    sender.wake();
  });
  plan.utility.forEach((u, k) =>
    clock.at(start + u.at, () => {
      users.forEach((_, i) => {
        // Like Pacer, a peer sends order updates only to people who agreed to them.
        if (!hasOrderUpdate(plan, k, i) || !consentsOf(plan, i).utility) return;
        if (sender.suppressed.has(i)) sender.utilitySkippedForSuppression++;
        else
          sender.enqueue({
            id: `${strategy.name}:order-${k}:${i}`,
            user: i,
            template: u.template,
            language: u.language,
            category: 'utility',
            campaign: false,
            retries: 0,
            sentAt: start,
          });
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
    wronglySuppressed: reachableAmong(users, sender.suppressed),
    utilitySkippedForSuppression: sender.utilitySkippedForSuppression,
    pauses: sender.pauses,
  };
}

/** A peer's queue, sent at the number's throughput each second, and what it does with each failure. */
class PeerSender {
  readonly suppressed = new Set<number>();
  readonly pauses: Array<{ from: Millis; to: Millis }> = [];
  retriesSpent = 0;
  utilitySkippedForSuppression = 0;
  private readonly queue: Job[] = [];
  private readonly byWamid = new Map<string, Job>();
  private ticking = false;
  /** The campaign's last outcomes (true: failed with the pause code), for spotting a wave. */
  private outcomes: boolean[] = [];
  private pausedUntil: Millis | null = null;
  /** Campaign messages held back by a pause, and those to send once more after it. */
  private held: Job[] = [];
  private toResend: Job[] = [];
  /** Sends one job: the wamid when accepted, `refused`, or null when there is nobody to send to. */
  private send: (job: Job) => Promise<SendResult> = () => Promise.resolve(null);

  constructor(
    private readonly clock: VirtualClock,
    private readonly mps: number,
    private readonly strategy: PeerStrategy,
  ) {}

  sendWith(send: (job: Job) => Promise<SendResult>): void {
    this.send = send;
  }

  enqueue(job: Job): void {
    this.queue.push(job);
  }

  onWebhook(body: unknown): void {
    for (const item of parseWebhook(body).items) {
      if (item.kind !== 'status') continue;
      const job = this.byWamid.get(item.messageId);
      if (job === undefined) continue;
      if (item.status === 'failed') {
        this.byWamid.delete(item.messageId);
        this.failed(job, item.errors[0]?.code ?? null);
      } else if (item.status === 'delivered' || item.status === 'read') {
        this.byWamid.delete(item.messageId);
        this.noteCampaignOutcome(job, false);
      }
    }
  }

  wake(): void {
    if (this.ticking || this.queue.length === 0) return;
    this.ticking = true;
    this.clock.at(this.clock.now(), () => this.tick());
  }

  private failed(job: Job, code: number | null): void {
    if (code !== null && this.strategy.bounceCodes.includes(code)) {
      this.suppressed.add(job.user); // a "bounce": never messaged again
      return;
    }
    const pause = this.strategy.campaignPause;
    if (pause !== null && job.campaign && code === pause.code && pause.resendFailed && job.retries === 0) this.toResend.push(job);
    this.noteCampaignOutcome(job, code !== null && code === pause?.code);
    this.retry(job);
  }

  private retry(job: Job): void {
    const after = this.strategy.retryAfterMs[job.retries];
    if (after === undefined) {
      if (this.strategy.whenOutOfRetries === 'suppress-contact') this.suppressed.add(job.user); // "unreachable"
      return;
    }
    this.retriesSpent++;
    const again = { ...job, retries: job.retries + 1 };
    if (after === 0) {
      this.queue.unshift(again);
      this.wake();
    } else
      // Timed from the failed send, as the schedules are written ("retry after 12 hours"); the failure arrives seconds later.
      this.clock.at(Math.max(this.clock.now(), job.sentAt + after), () => {
        this.queue.push(again);
        this.wake();
      });
  }

  /** Pauses the campaign when enough of its latest outcomes failed with the pause code. */
  private noteCampaignOutcome(job: Job, failedWithCode: boolean): void {
    const pause = this.strategy.campaignPause;
    if (pause === null || !job.campaign || this.pausedUntil !== null) return;
    this.outcomes.push(failedWithCode);
    if (this.outcomes.length > pause.window) this.outcomes.shift();
    const failures = this.outcomes.filter((f) => f).length;
    if (this.outcomes.length < pause.window || failures < pause.share * pause.window) return;
    const from = this.clock.now();
    const lasts = pause.pauseMs[Math.min(this.pauses.length, pause.pauseMs.length - 1)] ?? 0;
    this.pausedUntil = from + lasts;
    this.pauses.push({ from, to: from + lasts });
    this.clock.at(from + lasts, () => this.resume());
  }

  private resume(): void {
    this.pausedUntil = null;
    this.outcomes = [];
    for (const job of this.toResend) {
      this.retriesSpent++;
      this.queue.push({ ...job, retries: job.retries + 1 });
    }
    this.toResend = [];
    this.queue.push(...this.held);
    this.held = [];
    this.wake();
  }

  private async tick(): Promise<void> {
    const batch: Job[] = [];
    while (batch.length < this.mps && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      if (this.suppressed.has(job.user)) continue;
      if (job.campaign && this.pausedUntil !== null) this.held.push(job);
      else batch.push(job);
    }
    await Promise.all(
      batch.map(async (job) => {
        job.sentAt = this.clock.now();
        const sent = await this.send(job);
        if (sent === 'refused') this.failed(job, null);
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
