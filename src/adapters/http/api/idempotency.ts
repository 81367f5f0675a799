import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalKey } from '../../../app/api-tokens.js';
import { HOUR, MINUTE, type Millis } from '../../../core/time.js';
import type { Clock } from '../../../ports/clock.js';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../../ports/store.js';
import { ApiError } from './api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds, until its answer is recorded. */
    pacerIdempotency: { claim: IdempotencyClaim; claimedAt: Millis } | null;
  }
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const MAX_KEY_LENGTH = 255;
export const DEFAULT_IDEMPOTENCY_KEEP: Millis = 24 * HOUR;
/** A claim without an answer this long is abandoned: its process died mid-request. */
export const STALE_CLAIM_AFTER: Millis = 5 * MINUTE;
const SWEEP_EVERY: Millis = 10 * MINUTE;
/** Headers of the first answer that a replay repeats. */
const KEPT_HEADERS = ['content-type', 'location'] as const;

export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: Clock;
  /** How long a key and its first answer are kept (PACER_IDEMPOTENCY_KEEP, default 24 h). */
  keepMs: Millis;
}

/** What a route handler learns of the key: routes that queue work can derive their own dedupe from it. */
export interface IdempotencyKey {
  key: string;
  principal: string;
  /** The request's hash: the same key with the same request, however long after, has the same one. */
  fingerprint: string;
}

/**
 * The header's key, or null when absent. A Structured Field string (`"abc"`, as the IETF draft
 * writes it) and a bare token (`abc`, as most clients send it) name the same key.
 */
export function readIdempotencyKey(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const raw = (Array.isArray(header) ? header.join(', ') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(["\\])/g, '$1') : raw;
  const problem =
    key === ''
      ? 'is empty'
      : key.length > MAX_KEY_LENGTH
        ? `is ${key.length} characters long; at most ${MAX_KEY_LENGTH}`
        : /^[\x20-\x7e]+$/.test(key)
          ? null
          : 'may hold printable ASCII characters only';
  if (problem === null) return key;
  throw new ApiError(400, 'invalid_idempotency_key', `the ${IDEMPOTENCY_HEADER} header ${problem}`, [
    { path: IDEMPOTENCY_HEADER, message: problem },
  ]);
}

/** JSON with object keys sorted at every depth: the same body, however its keys were ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The request a key stands for: method, path, query and body, hashed. */
export function requestFingerprint(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const text = canonicalJson([request.method, path, request.query ?? {}, request.body ?? null]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Before the handler of an idempotent route: claims the key, or answers for it. The first answer is
 * replayed (with `idempotent-replayed: true`); a key still running is 409, a key used for another
 * request 422. Returns what the handler may know of the key, or `replayed` when the reply is sent.
 */
export async function enterIdempotent(
  deps: IdempotencyDeps & { sweeper: Sweeper },
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
): Promise<IdempotencyKey | 'replayed'> {
  const principal = request.pacerPrincipal;
  if (principal === null) throw new Error('an idempotent route needs an authenticated principal');
  const claim: IdempotencyClaim = { principal: principalKey(principal), key, fingerprint: requestFingerprint(request) };
  const now = deps.clock.now();
  deps.sweeper.maybe(now, request);
  const outcome = await deps.store.claimIdempotencyKey(claim, now, { keepMs: deps.keepMs, staleAfterMs: STALE_CLAIM_AFTER });
  switch (outcome.kind) {
    case 'claimed':
      request.pacerIdempotency = { claim, claimedAt: outcome.claimedAt };
      return { key, principal: claim.principal, fingerprint: claim.fingerprint };
    case 'done':
      await replay(reply, outcome.response);
      return 'replayed';
    case 'in_progress':
      reply.header('retry-after', '1');
      throw new ApiError(
        409,
        'idempotency_key_in_progress',
        `a request with this ${IDEMPOTENCY_HEADER} is still being processed; retry once it has been answered`,
        [{ path: IDEMPOTENCY_HEADER, message: 'in use by a request still running' }],
      );
    case 'mismatch':
      throw new ApiError(
        422,
        'idempotency_key_reused',
        `this ${IDEMPOTENCY_HEADER} was already used for a different request (another method, path or body); send a new key for a new request`,
        [{ path: IDEMPOTENCY_HEADER, message: 'already used for a different request' }],
      );
  }
}

async function replay(reply: FastifyReply, response: StoredResponse): Promise<void> {
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  await reply.code(response.status).header(REPLAYED_HEADER, 'true').send(response.body);
}

/**
 * The route's onSend hook: records the answer under the key before it leaves, so a retry that
 * follows it at once finds it. A 5xx lets the key go instead, and the retry runs again.
 */
export function recordAnswer(deps: IdempotencyDeps) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const held = request.pacerIdempotency;
    if (held === null) return payload;
    request.pacerIdempotency = null;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    try {
      if (reply.statusCode >= 500 || body === null) await deps.store.releaseIdempotencyKey(held.claim, held.claimedAt);
      else
        await deps.store.completeIdempotencyKey(held.claim, held.claimedAt, {
          status: reply.statusCode,
          headers: keptHeaders(reply),
          body,
        });
    } catch (error) {
      // The answer still goes out; the key stays claimed until it goes stale, then a retry runs again.
      request.log.error({ err: error }, 'idempotency key: the answer could not be recorded');
    }
    return payload;
  };
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}

/** Deletes expired keys now and then, from the request path, in the background. */
export class Sweeper {
  private last = -Infinity;
  constructor(private readonly store: IdempotencyStore) {}

  maybe(now: Millis, request: FastifyRequest): void {
    if (now - this.last < SWEEP_EVERY) return;
    this.last = now;
    this.store.sweepIdempotencyKeys(now).catch((error: unknown) => request.log.warn({ err: error }, 'idempotency key sweep failed'));
  }
}
