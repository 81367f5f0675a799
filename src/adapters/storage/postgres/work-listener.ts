import pg from 'pg';
import type { QueuedWatch } from '../../../ports/work-signal.js';

export interface WorkListenerOptions {
  connectionString: string;
  channel: string;
  applicationName: string;
  /** Called with each notification's due time (null when it carried none, and after a reconnect). */
  onQueued: (at: number | null) => void;
  /** Waits between reconnect attempts, doubling from `min` up to `max` (default 500 ms to 30 s). */
  retryMs?: { min: number; max: number };
  connectTimeoutMs?: number;
}

/**
 * LISTEN on one connection of its own (a pooled one would be handed to others and lose it). When it
 * drops, it is opened again after a pause that grows while the server stays away; once back, it
 * reports a notification without a time, since work may have been queued while nobody listened.
 */
export function listenForWork(o: WorkListenerOptions): QueuedWatch {
  const retry = o.retryMs ?? { min: 500, max: 30_000 };
  let current: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let delay = retry.min;
  let everConnected = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const connect = async (): Promise<void> => {
    timer = null;
    if (closed) return;
    const client = new pg.Client({
      connectionString: o.connectionString,
      application_name: o.applicationName,
      connectionTimeoutMillis: o.connectTimeoutMs ?? 10_000,
    });
    current = client;
    let lost = false;
    const drop = (): void => {
      if (lost) return;
      lost = true;
      connected = false;
      if (current === client) current = null;
      client.end().catch(() => undefined);
      if (closed) return;
      timer = setTimeout(() => void connect(), delay);
      timer.unref?.();
      delay = Math.min(delay * 2, retry.max);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      if (message.channel !== o.channel) return;
      const at = Number(message.payload);
      o.onQueued(message.payload !== undefined && message.payload !== '' && Number.isFinite(at) ? at : null);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${o.channel}"`); // the channel is built from a validated schema name
    } catch {
      drop();
      return;
    }
    if (lost) return;
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    connected = true;
    delay = retry.min;
    if (everConnected) o.onQueued(null);
    everConnected = true;
  };
  void connect();

  return {
    by: 'notify',
    everyMs: null,
    connected: () => connected,
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      const client = current;
      current = null;
      connected = false;
      await client?.end().catch(() => undefined);
    },
  };
}
