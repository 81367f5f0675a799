import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One webhook as the receiver got it: verified with the Standard Webhooks library, as a subscriber would. */
export interface Received {
  webhookId: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A subscriber on loopback: verifies every signature with `Webhook.verify`, keeps what it got in
 * arrival order, and can answer 200, answer 503, hold requests unanswered, or be down altogether
 * (closed, then listening again on the same port).
 */
export interface EventReceiver {
  url: string;
  /** Verified webhooks, in the order they arrived, repeats included. */
  received: Received[];
  /** Requests whose signature did not verify (answered 401). */
  unverified: number;
  /** Requests that arrived, answered or not. */
  requests: number;
  mode: 'ok' | 'unavailable' | 'hang';
  /** When set, requests after this many are held unanswered whatever the mode. */
  hangAfter: number | null;
  /** Down: stops listening and drops every open connection. */
  down(): Promise<void>;
  /** Up again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startEventReceiver(secret: string, port = 0): Promise<EventReceiver> {
  const verifier = new Webhook(secret);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const receiver: EventReceiver = {
    url: '',
    received: [],
    unverified: 0,
    requests: 0,
    mode: 'ok',
    hangAfter: null,
    down: async () => {
      const s = server;
      server = null;
      if (s === null) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    up: async () => {
      if (server !== null) return;
      server = await listen(port, handle, sockets);
    },
    close: () => receiver.down(),
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests++;
      if (receiver.mode === 'hang' || (receiver.hangAfter !== null && receiver.requests > receiver.hangAfter)) return; // never answered: the sender's timeout or a crash ends it
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: Omit<Received, 'webhookId'>;
      try {
        payload = verifier.verify(body, req.headers as Record<string, string>) as Omit<Received, 'webhookId'>;
      } catch {
        receiver.unverified++;
        res.writeHead(401).end();
        return;
      }
      if (receiver.mode === 'unavailable') {
        res.writeHead(503).end();
        return;
      }
      receiver.received.push({ webhookId: String(req.headers['webhook-id']), ...payload });
      res.writeHead(204).end();
    });
  }

  server = await listen(port, handle, sockets);
  port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}/hooks/pacer`;
  return receiver;
}

function listen(port: number, handle: (req: IncomingMessage, res: ServerResponse) => void, sockets: Set<Socket>): Promise<Server> {
  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** The first of each `webhook-id`, in arrival order: what a receiver that de-duplicates processes. */
export function firstOfEach(received: readonly Received[]): Received[] {
  const seen = new Set<string>();
  return received.filter((r) => !seen.has(r.webhookId) && seen.add(r.webhookId));
}
