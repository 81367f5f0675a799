import { Pool } from 'undici';
import { percentile } from './stats.js';

export interface LoadRequest {
  path: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface LoadOptions {
  /** Loopback origin, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** Builds request number i (0-based), so each can carry its own id or signature. */
  request: (i: number) => LoadRequest;
  /** Requests in flight at once (one per connection). */
  connections: number;
  /** Stop after this many requests... */
  maxRequests: number;
  /** ...or after this long, whichever comes first. */
  maxDurationMs: number;
  clock?: () => number;
}

export interface LoadResult {
  requests: number;
  /** 2xx responses. */
  ok: number;
  /** Non-2xx responses and transport errors. */
  failed: number;
  firstError: string | null;
  elapsedMs: number;
  /** ok responses per second. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A small closed-loop load generator on undici (already a dependency): `connections` loops each send
 * one request, wait for the full response, and send the next. Bounded in count and in time, so a
 * stuck server ends the run instead of hanging it.
 */
export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.connections < 1 || options.maxRequests < 1 || options.maxDurationMs <= 0) {
    throw new Error('generateLoad: connections, maxRequests and maxDurationMs must be positive');
  }
  const clock = options.clock ?? (() => performance.now());
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let issued = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  const start = clock();
  const deadline = start + options.maxDurationMs;
  const loop = async (): Promise<void> => {
    while (issued < options.maxRequests && clock() < deadline) {
      const req = options.request(issued++);
      const t0 = clock();
      try {
        const res = await pool.request({
          path: req.path,
          method: req.method ?? 'POST',
          headers: req.headers,
          body: req.body,
          headersTimeout: options.maxDurationMs,
          bodyTimeout: options.maxDurationMs,
        });
        await res.body.dump();
        latencies.push(clock() - t0);
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else {
          failed++;
          firstError ??= `HTTP ${res.statusCode} on ${req.path}`;
        }
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, loop));
  } finally {
    await pool.close();
  }
  const elapsedMs = clock() - start;
  return {
    requests: ok + failed,
    ok,
    failed,
    firstError,
    elapsedMs,
    rate: ok / (elapsedMs / 1000),
    p50Ms: latencies.length === 0 ? Number.NaN : percentile(latencies, 50),
    p99Ms: latencies.length === 0 ? Number.NaN : percentile(latencies, 99),
  };
}
