import type { ServerResponse } from 'node:http';
import type { Millis } from '../../core/time.js';

/** Failures to inject in front of the API, on demand. */
export type Fault =
  | { kind: 'http_5xx'; status?: 500 | 502 | 503 | 504 } // Meta's JSON error body, code 2 ("service down")
  | { kind: 'timeout' } // the request is held and never answered
  | { kind: 'connection_reset' } // the socket is destroyed mid-request
  | { kind: 'non_json' } // a 502 with an HTML page, as a proxy in the way would answer
  | { kind: 'error_code'; code: number }; // a Graph error such as 131016 or 130429

interface Armed {
  fault: Fault;
  /** Requests left to hit; null when bounded by time only. */
  remaining: number | null;
  /** Until when (scheduler time) it applies; null when bounded by count only. */
  until: Millis | null;
}

/**
 * Armed faults apply to the next requests, oldest first: `count` requests, or every request until
 * `forMs` has passed on the simulator's clock (a burst of 131016 or 130429, say).
 */
export class Faults {
  private armed: Armed[] = [];
  private readonly held = new Set<ServerResponse>();
  private heldWaiters: Array<() => void> = [];
  private heldTotal = 0;

  inject(fault: Fault, options: { count?: number; forMs?: Millis } = {}, now: Millis = 0): void {
    const count = options.count ?? (options.forMs === undefined ? 1 : null);
    if (count !== null && (!Number.isInteger(count) || count < 1))
      throw new Error(`faults.inject: count must be a positive integer, got ${count}`);
    this.armed.push({ fault, remaining: count, until: options.forMs === undefined ? null : now + options.forMs });
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault for the request arriving now, if any, used up by one. */
  take(now: Millis): Fault | null {
    this.armed = this.armed.filter((a) => a.until === null || now < a.until);
    const first = this.armed[0];
    if (first === undefined) return null;
    if (first.remaining !== null) {
      first.remaining--;
      if (first.remaining === 0) this.armed.shift();
    }
    return first.fault;
  }

  /** Keeps a request open without answering (a timeout as the client sees it). */
  hold(response: ServerResponse): void {
    this.held.add(response);
    this.heldTotal++;
    response.on('close', () => this.held.delete(response));
    const waiters = this.heldWaiters;
    this.heldWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once `n` requests in total have been held since start. */
  async whenHeld(n = 1): Promise<void> {
    while (this.heldTotal < n) await new Promise<void>((resolve) => this.heldWaiters.push(resolve));
  }

  /** Drops every held request's connection. */
  releaseHeld(): void {
    for (const response of this.held) response.socket?.destroy();
    this.held.clear();
  }
}
