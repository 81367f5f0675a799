import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../ports/clock.js';
import { StoreError } from '../../ports/store.js';
import type { HttpMetrics } from './http-metrics.js';
import type { InboxWriter } from './inbox-writer.js';
import { verifyHandshake } from './verify-handshake.js';
import { authenticateWebhook, rejectMessage, type WebhookAuthConfig } from './webhook-auth.js';
import { BODY_TIMEOUT_CODE, bodyTimeoutReply, refuse, webhookIntake } from './webhook-intake.js';

export const WEBHOOK_PATH = '/webhooks/whatsapp';
/** Meta documents webhook payloads of up to 3 MB; a declared length over it is refused before buffering. */
export const WEBHOOK_BODY_LIMIT = 3 * 1024 * 1024;

export interface WebhookRoutesOptions {
  auth: WebhookAuthConfig;
  verifyToken: string | null;
  clock: Clock;
  writer: InboxWriter;
  metrics: HttpMetrics;
  /** Bytes of bodies received at once across all POSTs, and the time one body may take. */
  intake: { inflightBytes: number; bodyTimeoutMs: number };
}

function toBytes(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (body === undefined || body === null) return Buffer.alloc(0); // a POST without a body
  throw new TypeError(`webhook body parser produced ${typeof body}, expected raw bytes`);
}

/**
 * `GET|POST /webhooks/whatsapp`. Ingest only verifies the raw bytes, commits them to the inbox and
 * answers 200; parsing happens later, from the inbox, so a parser bug never loses a webhook.
 * Registered as an encapsulated plugin: its raw-bytes body parser does not leak to other routes.
 */
export const webhookRoutes: FastifyPluginAsync<WebhookRoutesOptions> = async (app, options) => {
  const { auth, verifyToken, clock, writer, metrics } = options;
  const intake = webhookIntake({ bodyLimit: WEBHOOK_BODY_LIMIT, ...options.intake, auth, metrics });

  // Every content type arrives as the exact bytes sent: signatures are over bytes, never re-serialise.
  app.removeAllContentTypeParsers();
  const keepBytes = (_req: unknown, body: Buffer, done: (err: null, body: Buffer) => void): void => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepBytes);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keepBytes);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      metrics.webhookTooLarge++;
      request.log.warn({ limit: WEBHOOK_BODY_LIMIT }, 'webhook body over the size limit refused');
      return refuse(reply, 413, 'payload_too_large', `request body is larger than ${WEBHOOK_BODY_LIMIT} bytes`);
    }
    if (error.code === BODY_TIMEOUT_CODE) return bodyTimeoutReply(reply, options.intake.bodyTimeoutMs);
    throw error; // everything else: the server's default handling
  });

  app.get(WEBHOOK_PATH, async (request, reply) => {
    const result = verifyHandshake(request.query, verifyToken);
    if (!result.ok) {
      request.log.warn({ status: result.status }, `webhook handshake refused: ${result.message}`);
      return reply.code(result.status).send({ error: result.error, message: result.message });
    }
    return reply.code(200).type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(result.challenge);
  });

  app.post(
    WEBHOOK_PATH,
    { bodyLimit: WEBHOOK_BODY_LIMIT, onRequest: intake.onRequest, preParsing: intake.preParsing },
    async (request, reply) => {
      const raw = toBytes(request.body);
      const verdict = authenticateWebhook(raw, request.headers['x-hub-signature-256'], auth);
      if (!verdict.accept) {
        metrics.webhookRejected[verdict.reason]++;
        request.log.warn({ reason: verdict.reason }, 'webhook refused: signature check failed');
        return reply.code(401).send({ error: 'invalid_signature', message: rejectMessage(verdict.reason) });
      }
      try {
        await writer.append({ raw, receivedAt: clock.now(), signatureOk: verdict.signatureOk });
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        metrics.webhookStoreFailed++;
        // StoreError messages name the operation and the driver's code, never bound values.
        request.log.error({ code: error.code, operation: error.operation }, `webhook not stored: ${error.message}`);
        // Any non-2xx makes Meta redeliver; 503 says the fault is ours and temporary.
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({ error: 'store_unavailable', message: 'the webhook could not be stored; retry later' });
      }
      metrics.webhookStored++;
      return reply.code(200).send();
    },
  );
};
