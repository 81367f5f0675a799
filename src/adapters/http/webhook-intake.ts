import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, preParsingAsyncHookHandler } from 'fastify';
import type { HttpMetrics } from './http-metrics.js';
import { closeAfterLinger } from './lingering-close.js';
import { refusalBeforeBody, rejectMessage, type WebhookAuthConfig } from './webhook-auth.js';

/** Bodies of webhook POSTs being received at once, all together (PACER_WEBHOOK_INFLIGHT_MB). */
export const DEFAULT_WEBHOOK_INFLIGHT_BYTES = 32 * 1024 * 1024;
/** Time for one webhook body to arrive once its headers have (PACER_WEBHOOK_BODY_TIMEOUT_MS). */
export const DEFAULT_WEBHOOK_BODY_TIMEOUT_MS = 10_000;
/** What 503s and 408s ask Meta to wait before redelivering. */
const RETRY_AFTER_SECONDS = 5;

export const BODY_TIMEOUT_CODE = 'PACER_WEBHOOK_BODY_TIMEOUT';

export interface WebhookIntakeOptions {
  /** The largest body accepted (Meta documents payloads up to 3 MB). */
  bodyLimit: number;
  inflightBytes: number;
  bodyTimeoutMs: number;
  auth: WebhookAuthConfig;
  metrics: HttpMetrics;
}

/**
 * What a webhook POST must pass before its body is read, and the clock its body runs against.
 * Anyone can reach this route, so nothing unauthenticated may make the server hold much memory:
 * a declared length over the limit, or a signature header that cannot be right (absent in
 * production, malformed), is answered at once; each body reserves its declared length (the limit
 * when chunked) against one budget for all bodies in flight, and is refused with 503 when the
 * budget is spent; a body that has not arrived within the timeout is dropped with 408. Every
 * refusal closes the connection, so a client cannot keep sending into it (after a short linger, in
 * which what it still sends is dropped, so that it reads the answer rather than a reset).
 */
export function webhookIntake(o: WebhookIntakeOptions): { onRequest: onRequestAsyncHookHandler; preParsing: preParsingAsyncHookHandler } {
  let inflight = 0;
  const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const length = declaredLength(request);
    if (length !== null && length > o.bodyLimit) {
      o.metrics.webhookTooLarge++;
      request.log.warn({ limit: o.bodyLimit }, 'webhook body over the size limit refused');
      return refuse(reply, 413, 'payload_too_large', `request body is larger than ${o.bodyLimit} bytes`);
    }
    const reason = refusalBeforeBody(request.headers['x-hub-signature-256'], o.auth);
    if (reason !== null) {
      o.metrics.webhookRejected[reason]++;
      request.log.warn({ reason }, 'webhook refused: signature check failed');
      return refuse(reply, 401, 'invalid_signature', rejectMessage(reason));
    }
    // A chunked body may grow to the limit, so it reserves that much.
    const reserved = length ?? o.bodyLimit;
    if (inflight + reserved > o.inflightBytes) {
      o.metrics.webhookBusy++;
      request.log.warn({ inflight, limit: o.inflightBytes }, 'webhook refused: too many bodies being received at once');
      return refuse(
        reply.header('retry-after', String(RETRY_AFTER_SECONDS)),
        503,
        'busy',
        'too many webhook bodies are being received at once; retry later',
      );
    }
    inflight += reserved;
    // Whether answered, refused later or cut off, the response closes exactly once.
    reply.raw.once('close', () => {
      inflight -= reserved;
    });
    return undefined;
  };
  const preParsing = async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable> => {
    const timed = new Transform({ transform: (chunk, _encoding, done) => done(null, chunk) });
    timed.on('error', () => undefined); // the body parser reports it; nothing else may see it
    payload.once('error', (error) => timed.destroy(error));
    const timer = setTimeout(() => {
      payload.unpipe(timed);
      payload.pause();
      o.metrics.webhookBodyTimeout++;
      request.log.warn({ timeoutMs: o.bodyTimeoutMs }, 'webhook body not received in time');
      timed.destroy(
        Object.assign(new Error(`the request body did not arrive within ${o.bodyTimeoutMs} ms`), {
          statusCode: 408,
          code: BODY_TIMEOUT_CODE,
        }),
      );
    }, o.bodyTimeoutMs);
    timed.once('end', () => clearTimeout(timer));
    reply.raw.once('close', () => clearTimeout(timer));
    return payload.pipe(timed);
  };
  return { onRequest, preParsing };
}

/** The 408 for a body that timed out (from the route's error handler). */
export function bodyTimeoutReply(reply: FastifyReply, timeoutMs: number): FastifyReply {
  return closeAfterLinger(reply.request, reply)
    .code(408)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({ error: 'body_timeout', message: `the request body did not arrive within ${timeoutMs} ms` });
}

/** The declared body length: null for a chunked body, 0 for none. */
function declaredLength(request: FastifyRequest): number | null {
  const header = request.headers['content-length'];
  if (header !== undefined) return Number(header);
  return request.headers['transfer-encoding'] === undefined ? 0 : null;
}

export function refuse(reply: FastifyReply, status: number, error: string, message: string): FastifyReply {
  return closeAfterLinger(reply.request, reply).code(status).send({ error, message });
}
