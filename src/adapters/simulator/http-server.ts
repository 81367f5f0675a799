import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimContext } from './context.js';
import type { Faults } from './faults.js';
import { graphError, unsupportedRequest, type HandlerAnswer } from './graph-error.js';
import { deleteMedia, getMedia, MAX_UPLOAD_BODY_BYTES, uploadMedia } from './media-api.js';
import { apiErrorBody } from './payloads.js';
import { getPhoneNumber, listPhoneNumbers } from './phone-number-api.js';
import { handleSend } from './send-handler.js';
import { getTemplate, listTemplates, templateById } from './template-api.js';
import { editTemplateOverApi } from './template-edit.js';

const MAX_BODY_BYTES = 1024 * 1024;
const VERSION = /^v\d+\.\d+$/;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The simulator's Graph API front: bearer auth, injected faults, then the send handler. */
export async function startHttpServer(ctx: SimContext, faults: Faults): Promise<RunningServer> {
  const server = createServer((req, res) => {
    // Media uploads may be as large as Meta's largest file; every other body is small JSON.
    const upload = req.method === 'POST' && /\/media\/?(\?|$)/.test(req.url ?? '');
    readBody(req, upload ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES, (raw, tooLarge) => {
      if (!applyFault(ctx, faults, req, res)) return;
      const answer = tooLarge && !upload ? graphError(ctx, 100, 'Request body too large.') : route(ctx, req, tooLarge ? null : raw);
      send(res, answer);
    });
  });
  server.keepAliveTimeout = 65_000; // longer than clients keep idle sockets, so a reused socket is never closed under a request
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.port, ctx.config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${ctx.config.host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `raw` is null when an upload was larger than any file Meta takes (and was not kept). The bearer
 * token decides which accounts a request reaches: an object of any other account answers as if
 * it did not exist, as Graph does.
 */
function route(ctx: SimContext, req: IncomingMessage, raw: Buffer | null): HandlerAnswer {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const reachable = ctx.numbers.reachable(token);
  if (reachable.length === 0) return graphError(ctx, 190);
  const url = new URL(req.url ?? '/', 'http://simulator');
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const [version, objectId = '', edge] = segments;
  if (version === undefined || !VERSION.test(version)) return graphError(ctx, 100, 'Unknown API version in path.');
  const method = req.method;

  const account = ctx.numbers.account(objectId);
  if (account !== undefined && method === 'GET' && segments.length === 3 && (edge === 'message_templates' || edge === 'phone_numbers')) {
    if (!reachable.includes(account)) return unsupportedRequest(ctx, method, objectId);
    if (edge === 'phone_numbers') return listPhoneNumbers(ctx, account, version, url.searchParams);
    const answer = listTemplates(ctx, account, version, url.searchParams);
    return 'error' in answer ? graphError(ctx, 100, answer.error) : answer;
  }
  const template = segments.length === 2 && (method === 'GET' || method === 'POST') ? templateById(reachable, objectId) : undefined;
  if (template !== undefined && method === 'GET') return getTemplate(ctx, template, url.searchParams);
  if (template !== undefined) {
    const json = jsonBody(raw);
    return json === undefined ? graphError(ctx, 100, 'The request body is not valid JSON.') : editTemplateOverApi(ctx, template, json);
  }
  if (segments.length === 2 && (method === 'GET' || method === 'DELETE')) {
    const media = (method === 'GET' ? getMedia : deleteMedia)(ctx, reachable, objectId, url.searchParams);
    if (media !== undefined) return media;
  }
  const number = ctx.numbers.number(objectId);
  if (number === undefined || !reachable.includes(number.account)) return unsupportedRequest(ctx, method, objectId);
  if (method === 'GET' && segments.length === 2) return getPhoneNumber(ctx, number, version, url.searchParams);
  if (method === 'POST' && segments.length === 3 && edge === 'media') return uploadMedia(ctx, number, req.headers['content-type'], raw);
  if (method === 'POST' && segments.length === 3 && (edge === 'messages' || edge === 'marketing_messages')) {
    const json = jsonBody(raw);
    return json === undefined ? graphError(ctx, 100, 'The request body is not valid JSON.') : handleSend(ctx, number, edge, json);
  }
  return graphError(ctx, 100, `Unsupported ${method ?? ''} request.`);
}

/** The body as JSON; undefined when it is none. */
function jsonBody(raw: Buffer | null): unknown {
  try {
    return JSON.parse(raw?.toString('utf8') ?? '') as unknown;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, answer: HandlerAnswer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage, limit: number, done: (raw: Buffer, tooLarge: boolean) => void): void {
  let chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      tooLarge = true;
      chunks = []; // read on to the end, keeping nothing
    } else chunks.push(chunk);
  });
  req.on('end', () => done(tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge));
  req.on('error', () => undefined); // a client that went away needs no answer
}

/** Applies the next armed fault; false when the request has been dealt with (or deliberately not). */
export function applyFault(ctx: SimContext, faults: Faults, req: IncomingMessage, res: ServerResponse): boolean {
  const fault = faults.take(ctx.scheduler.now());
  if (fault === null) return true;
  switch (fault.kind) {
    case 'http_5xx':
      ctx.truth.syncError(2);
      send(res, { status: fault.status ?? 503, body: apiErrorBody(2, ctx.ids.fbtraceId()) });
      return false;
    case 'timeout':
      faults.hold(res);
      return false;
    case 'connection_reset':
      req.socket.destroy();
      return false;
    case 'non_json': {
      const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
      res.end(html);
      return false;
    }
    case 'error_code':
      send(res, graphError(ctx, fault.code));
      return false;
  }
}
