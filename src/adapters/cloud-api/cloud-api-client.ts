import { Pool } from 'undici';
import type { CloudApi, SendRequest, SendResult, TransportFailureReason } from '../../ports/cloud-api.js';
import { systemClock, type Scheduler } from '../../ports/clock.js';
import { classifyCode } from '../../core/error-catalogue/index.js';
import { DEFAULT_POLICY } from '../../core/policy.js';
import { parseSendResponse, type ClassifyCode } from './parse-response.js';
import { buildRequestBody, sendPath } from './request-body.js';
import { Semaphore } from './semaphore.js';

export interface CloudApiClientOptions {
  /** Scheme, host and optional path prefix, e.g. Meta's Graph API origin or the simulator's URL. */
  baseUrl: string;
  /** Graph API version segment, e.g. `v23.0`. */
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
  /** Codes read as the per-user marketing cap (the policy's `capCodes`; 131049 by default). */
  capCodes?: readonly number[];
  /** Requests in flight at once; more wait in line. Also the number of pooled keep-alive connections. */
  maxConcurrency?: number;
  /** Time from dispatch to a complete answer before the send becomes a `timeout` failure. */
  timeoutMs?: number;
  /** Clock that times the timeout (virtual in tests). */
  scheduler?: Scheduler;
}

const DEFAULTS = { maxConcurrency: 16, timeoutMs: 30_000 } as const;

/**
 * Cloud API client over a keep-alive undici pool. It never retries: a transport failure or an API
 * error comes back as a value and the caller's policy decides what happens next.
 */
export function createCloudApiClient(options: CloudApiClientOptions): CloudApi {
  const base = parseBaseUrl(options.baseUrl);
  const maxConcurrency = positiveInt(options.maxConcurrency ?? DEFAULTS.maxConcurrency, 'maxConcurrency');
  const timeoutMs = positiveInt(options.timeoutMs ?? DEFAULTS.timeoutMs, 'timeoutMs');
  if (options.apiVersion.trim() === '') throw new Error('Cloud API client: apiVersion is empty');
  if (options.phoneNumberId.trim() === '') throw new Error('Cloud API client: phoneNumberId is empty');
  const scheduler = options.scheduler ?? systemClock;
  const pool = new Pool(base.origin, { connections: maxConcurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const gate = new Semaphore(maxConcurrency);
  const authorization = `Bearer ${options.accessToken}`;
  const capCodes = options.capCodes ?? DEFAULT_POLICY.capCodes;
  // The catalogue classifies by `error.code` alone, never by HTTP status.
  const classify: ClassifyCode = (code) => classifyCode(code, capCodes);

  async function dispatch(request: SendRequest): Promise<SendResult> {
    const path = base.pathPrefix + sendPath(options.apiVersion, options.phoneNumberId, request);
    const body = JSON.stringify(buildRequestBody(request));
    const controller = new AbortController();
    let timedOut = false;
    const timer = scheduler.at(scheduler.now() + timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    try {
      const response = await pool.request({
        method: 'POST',
        path,
        headers: { authorization, 'content-type': 'application/json' },
        body,
        signal: controller.signal,
      });
      const text = await response.body.text();
      return parseSendResponse(response.statusCode, text, classify);
    } catch (error) {
      const reason: TransportFailureReason = timedOut ? 'timeout' : transportReason(error);
      const detail = timedOut ? `no complete answer within ${timeoutMs} ms` : `${errorCode(error) ?? 'error'}: ${reason}`;
      return { kind: 'transport_failure', reason, transient: true, detail, httpStatus: null };
    } finally {
      timer.cancel();
    }
  }

  return {
    async send(request) {
      await gate.acquire();
      try {
        return await dispatch(request);
      } finally {
        gate.release();
      }
    },
    async close() {
      await pool.close();
    },
  };
}

function transportReason(error: unknown): TransportFailureReason {
  switch (errorCode(error)) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timeout';
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection_reset';
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'connection_refused';
    case null:
    default:
      return 'network_error';
  }
}

function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // undici wraps connect failures; the system code sits on the cause.
  return errorCode((error as { cause?: unknown }).cause);
}

function parseBaseUrl(baseUrl: string): { origin: string; pathPrefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`Cloud API client: baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`Cloud API client: baseUrl must be http(s), got ${url.protocol}`);
  }
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`Cloud API client: ${name} must be a positive integer, got ${value}`);
  return value;
}
