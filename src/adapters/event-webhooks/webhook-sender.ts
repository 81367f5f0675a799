import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import type { EventWebhookRequest, EventWebhookResult, EventWebhookSender } from '../../ports/event-webhooks.js';

export interface WebhookSenderOptions {
  /** From sending to a complete answer; past it the attempt counts as no answer. */
  timeoutMs: number;
  /** Keep-alive connections per receiver origin. */
  connectionsPerOrigin?: number;
}

/** Read of a receiver's answer: its status matters, its body only as far as this (then it is dropped). */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'Pacer-Webhooks/1';

/**
 * POSTs signed event webhooks with undici over keep-alive connections. The signature is made by
 * `standardwebhooks`, the specification's reference library, so what receivers verify with it is
 * what we sign. Redirects are not followed (a 3xx is an answer that is not a 2xx).
 */
export function createWebhookSender(options: WebhookSenderOptions): EventWebhookSender {
  const agent = new Agent({ connections: options.connectionsPerOrigin ?? 8, keepAliveTimeout: 30_000, pipelining: 1 });
  const signers = new Map<string, Webhook>();
  const signer = (secret: string): Webhook => {
    let w = signers.get(secret);
    if (w === undefined) {
      if (signers.size > 1000) signers.clear();
      w = new Webhook(secret);
      signers.set(secret, w);
    }
    return w;
  };

  async function post(r: EventWebhookRequest): Promise<EventWebhookResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      const signature = signer(r.secret).sign(r.webhookId, new Date(r.timestamp), r.body);
      const response = await request(r.url, {
        method: 'POST',
        dispatcher: agent,
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': r.webhookId,
          'webhook-timestamp': String(Math.floor(r.timestamp / 1000)),
          'webhook-signature': signature,
        },
        body: r.body,
      });
      await drain(response.body);
      return { kind: 'answered', status: response.statusCode, durationMs: elapsed() };
    } catch (error) {
      const reason = controller.signal.aborted ? `no complete answer within ${options.timeoutMs} ms` : describe(error);
      return { kind: 'no_answer', error: reason, durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  return { post, close: () => agent.close() };
}

async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read > MAX_ANSWER_BYTES) {
      body.destroy();
      return;
    }
  }
}

/** The error's code and message, never the URL (it may carry a token in its query). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const name = typeof code === 'string' ? code : typeof cause === 'string' ? cause : error.name;
  return `${name}: ${error.message}`.slice(0, 300);
}
