import { z } from 'zod';
import { Pool } from 'undici';
import { classifyCode } from '../../core/error-catalogue/index.js';
import { DEFAULT_POLICY } from '../../core/policy.js';
import type { ApiFailure } from '../../ports/cloud-api.js';
import { systemClock, type Scheduler } from '../../ports/clock.js';
import { readJson, unexpectedBody } from './parse-response.js';

export interface GraphReaderOptions {
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
  timeoutMs?: number;
  scheduler?: Scheduler;
}

/** A page of a Graph API edge (`data`, cursors, `next` only when there is a next page), its items unread. */
export const graphPage = z.object({
  data: z.array(z.unknown()),
  paging: z.object({ cursors: z.object({ after: z.string().optional() }).partial().optional(), next: z.string().optional() }).optional(),
});

/** One Graph API object: its id, the rest unread. */
export const graphObject = z.object({ id: z.union([z.string(), z.number()]) }).passthrough();

export type GraphAnswer = ApiFailure | { kind: 'json'; json: unknown; status: number };

/** Graph API calls (templates, phone numbers) over a small keep-alive pool; like the send client, it never retries. */
export interface GraphReader {
  get(path: string): Promise<GraphAnswer>;
  /** A JSON body to an object or edge, as an edit is (`POST /{TEMPLATE_ID}`). */
  post(path: string, body: unknown): Promise<GraphAnswer>;
  close(): Promise<void>;
}

export function createGraphReader(options: GraphReaderOptions): GraphReader {
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, { connections: 2, pipelining: 1 });
  const scheduler = options.scheduler ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers = { authorization: `Bearer ${options.accessToken}` };
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  // No cap applies to reading; the default cap codes keep the classification the send client's.
  const classify = (code: number) => classifyCode(code, DEFAULT_POLICY.capCodes);

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<GraphAnswer> {
    const controller = new AbortController();
    const timer = scheduler.at(scheduler.now() + timeoutMs, () => controller.abort());
    try {
      const response = await pool.request({
        method,
        path: `${prefix}/${options.apiVersion}/${path}`,
        headers: body === undefined ? headers : jsonHeaders,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
      });
      const text = await response.body.text();
      const read = readJson(response.statusCode, text, classify);
      if (read.kind !== 'json') return read;
      if (response.statusCode < 200 || response.statusCode >= 300)
        return unexpectedBody(response.statusCode, 'a success body with a non-2xx status');
      return { ...read, status: response.statusCode };
    } catch (error) {
      const aborted = controller.signal.aborted;
      return {
        kind: 'transport_failure',
        reason: aborted ? 'timeout' : 'network_error',
        transient: true,
        detail: aborted ? `no complete answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error),
        httpStatus: null,
      };
    } finally {
      timer.cancel();
    }
  }
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body), close: () => pool.close() };
}
