import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature, type SignatureCheck } from '../src/adapters/http/webhook-signature.js';

/** One POST the receiver got: the exact bytes, the signature check, and the parsed JSON. */
export interface Received {
  /** When it arrived, on the clock the test passed in (virtual time), or real time. */
  at: number;
  raw: Buffer;
  check: SignatureCheck;
  body: WebhookBody;
}

export interface WebhookBody {
  object: string;
  entry: Array<{ id: string; time?: number; changes: Array<{ field: string; value: Record<string, unknown> }> }>;
}

export interface StatusLike {
  id: string;
  status: string;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  pricing?: Record<string, unknown>;
  errors?: Array<{ code: number; title: string; message: string; error_data: { details: string }; href: string }>;
}

/**
 * A webhook endpoint for tests: verifies each POST with the given secrets (as our real endpoint
 * does), keeps everything, and answers with `answer()` (200 unless a test says otherwise).
 */
export class TestReceiver {
  readonly received: Received[] = [];
  answer: () => number = () => 200;
  private waiters: Array<() => void> = [];
  private server: Server | null = null;
  url = '';

  constructor(
    private readonly secrets: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const header = req.headers['x-hub-signature-256'];
        const check = verifySignature(raw, typeof header === 'string' ? header : undefined, this.secrets);
        this.received.push({ at: this.now(), raw, check, body: JSON.parse(raw.toString('utf8')) as WebhookBody });
        res.writeHead(this.answer()).end();
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/whatsapp`;
    return this;
  }

  /** Resolves once `test` holds for what has arrived (checked on each arrival; no polling). */
  async waitFor(test: (r: this) => boolean): Promise<void> {
    while (!test(this)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  changes(field?: string): Array<{ field: string; value: Record<string, unknown> }> {
    return this.received.flatMap((r) => r.body.entry.flatMap((e) => e.changes)).filter((c) => field === undefined || c.field === field);
  }

  statuses(): StatusLike[] {
    return this.changes('messages').flatMap((c) => (c.value.statuses as StatusLike[] | undefined) ?? []);
  }

  statusesFor(wamid: string): StatusLike[] {
    return this.statuses().filter((s) => s.id === wamid);
  }

  inboundMessages(): Array<Record<string, unknown>> {
    return this.changes('messages').flatMap((c) => (c.value.messages as Array<Record<string, unknown>> | undefined) ?? []);
  }
}
