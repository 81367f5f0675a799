import { createHmac } from 'node:crypto';
import { Agent } from 'undici';
import { SECOND, type Millis } from '../../core/time.js';
import type { Scheduler } from '../../ports/clock.js';
import type { SimulatorConfig } from './config.js';
import { webhookBody, type NumberIdentity, type OutEvent } from './payloads.js';
import type { Prng } from './prng.js';

/** Signs as Meta does (`X-Hub-Signature-256`), on its own: the simulator never shares the verifier's code. */
function signBody(body: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export interface DeliveryStats {
  /** POST attempts, retries and duplicates included. */
  attempts: number;
  /** Bodies the endpoint answered with 200. */
  accepted: number;
  /** Attempts answered with something else, or that failed on the network. */
  failedAttempts: number;
  /** Bodies posted a second time on purpose (Meta sends duplicates). */
  duplicates: number;
  /** Bodies abandoned after `retryForMs` of failures. */
  abandoned: number;
  /** Events handed over for delivery. */
  events: number;
  /** Failed attempts by cause: `http <status>` or the network error's code. */
  failures: Record<string, number>;
}

/** Whose webhook an event is: the number (or account) it names, and the app secret that signs it. */
export interface WebhookSender {
  who: NumberIdentity;
  appSecret: string;
}

interface PendingStatus {
  event: OutEvent;
  from: WebhookSender;
  dueAt: Millis;
  taken: boolean;
}

const BATCH_WINDOW_MS = 5 * SECOND;

/**
 * Posts webhooks the way Meta does: signed with the sending account's app secret, after a delay,
 * sometimes several statuses of one number in one POST, sometimes twice, sometimes out of order,
 * and again with growing gaps while the endpoint answers anything but 200 (for up to 7 days).
 */
export class WebhookDelivery {
  readonly stats: DeliveryStats = { attempts: 0, accepted: 0, failedAttempts: 0, duplicates: 0, abandoned: 0, events: 0, failures: {} };
  private readonly pending: PendingStatus[] = [];
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  private stopped = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly rng: Prng,
    private readonly config: SimulatorConfig['webhooks'],
    private readonly callbackUrl: string | null,
  ) {}

  /** Hands over an event of `from` that happened at `at`; it is posted after the network's delay. */
  emit(event: OutEvent, at: Millis, from: WebhookSender): void {
    if (this.stopped) return;
    this.stats.events++;
    let dueAt = at + this.rng.logUniform(Math.max(1, this.config.latencyMs.min), Math.max(1, this.config.latencyMs.max));
    if (event.kind !== 'status') {
      this.scheduler.at(dueAt, () => this.post(JSON.stringify(webhookBody(from.who, [event])), from.appSecret, 0, this.scheduler.now()));
      return;
    }
    // Held back long enough that the message's next status can overtake it.
    if (this.rng.chance(this.config.outOfOrderRate)) dueAt += this.rng.between(5 * SECOND, 90 * SECOND);
    const item: PendingStatus = { event, from, dueAt, taken: false };
    this.pending.push(item);
    this.scheduler.at(dueAt, () => this.flush(item));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.agent.destroy();
  }

  private async flush(first: PendingStatus): Promise<void> {
    if (first.taken || this.stopped) return;
    const batch = [first];
    first.taken = true;
    if (this.rng.chance(this.config.batchRate)) {
      const horizon = this.scheduler.now() + BATCH_WINDOW_MS;
      for (const p of this.pending) {
        if (batch.length >= this.config.maxBatch) break;
        // One body names one number in its metadata, so only that number's statuses share it.
        if (!p.taken && p.dueAt <= horizon && p.from.who.phoneNumberId === first.from.who.phoneNumberId) {
          p.taken = true;
          batch.push(p);
        }
      }
    }
    this.compactPending();
    const body = JSON.stringify(
      webhookBody(
        first.from.who,
        batch.map((b) => b.event),
      ),
    );
    await this.post(body, first.from.appSecret, 0, this.scheduler.now());
  }

  private compactPending(): void {
    if (this.pending.length < 256) return;
    const live = this.pending.filter((p) => !p.taken);
    this.pending.length = 0;
    this.pending.push(...live);
  }

  /** One POST of exact bytes; retries resend the same bytes, as Meta does. */
  private async post(body: string, appSecret: string, attempt: number, firstAt: Millis, duplicate = false): Promise<void> {
    if (this.stopped || this.callbackUrl === null) return;
    this.stats.attempts++;
    let ok = false;
    let cause = '';
    try {
      const response = await this.agent.request({
        origin: new URL(this.callbackUrl).origin,
        path: pathOf(this.callbackUrl),
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, appSecret) },
        body,
        headersTimeout: this.config.requestTimeoutMs,
        bodyTimeout: this.config.requestTimeoutMs,
      });
      await response.body.dump();
      ok = response.statusCode === 200;
      cause = `http ${response.statusCode}`;
    } catch (error) {
      ok = false; // refused, reset or timed out: all count as a failed delivery
      cause = (error as { code?: string }).code ?? 'network error';
    }
    if (this.stopped) return;
    const now = this.scheduler.now();
    if (ok) {
      this.stats.accepted++;
      if (!duplicate && this.rng.chance(this.config.duplicateRate)) {
        this.stats.duplicates++;
        this.scheduler.at(now + this.rng.between(SECOND, 60 * SECOND), () => this.post(body, appSecret, 0, now, true));
      }
      return;
    }
    this.stats.failedAttempts++;
    this.stats.failures[cause] = (this.stats.failures[cause] ?? 0) + 1;
    const gap = Math.min(this.config.retryMaxMs, this.config.retryBaseMs * 2 ** attempt);
    if (now + gap - firstAt > this.config.retryForMs) {
      this.stats.abandoned++;
      return;
    }
    this.scheduler.at(now + gap, () => this.post(body, appSecret, attempt + 1, firstAt, duplicate));
  }
}

function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
