import { createHash } from 'node:crypto';
import type { SimAccount, SimNumber } from './business-numbers.js';
import type { SimContext } from './context.js';
import { graphError, type HandlerAnswer } from './graph-error.js';
import { MAX_BYTES, uploadKindOf } from './media-store.js';
import { boundaryOf, parseMultipart } from './multipart-form.js';
import { unixSeconds } from './payloads.js';

/**
 * `POST /{PHONE_NUMBER_ID}/media`, `GET /{MEDIA_ID}` and `DELETE /{MEDIA_ID}` (reference §4.1).
 *
 * A malformed form (not multipart, no `messaging_product`, `file` or `type`) is a request problem,
 * 100 ("Invalid parameter"). A file of a type Meta does not take, one whose declared types
 * disagree, or one over its kind's size limit is refused with 131053: Meta's error-code table gives
 * that code, "Media upload error", for media it cannot take, naming unsupported and mismatched MIME
 * types, while 100 is about the request's own parameters.
 */

/** Largest body read: the biggest file Meta takes (a 100 MB document) plus room for the form around it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_BYTES.document + 64 * 1024;

export function uploadMedia(ctx: SimContext, number: SimNumber, contentType: string | undefined, body: Buffer | null): HandlerAnswer {
  const boundary = boundaryOf(contentType);
  if (boundary === null) return graphError(ctx, 100, 'The request must be multipart/form-data with a boundary.');
  if (body === null) return graphError(ctx, 131053, `The file is larger than any media WhatsApp takes (${MAX_BYTES.document} bytes).`);
  const form = parseMultipart(boundary, body);
  if ('error' in form) return graphError(ctx, 100, `Invalid multipart/form-data body: ${form.error}.`);
  if (form.fields.get('messaging_product') !== 'whatsapp') {
    return graphError(ctx, 100, 'The parameter messaging_product is required and must be "whatsapp".');
  }
  const file = form.files.get('file');
  if (file === undefined) return graphError(ctx, 100, 'The parameter file is required.');
  const type = form.fields.get('type');
  if (type === undefined || type === '') return graphError(ctx, 100, 'The parameter type is required.');
  const kind = uploadKindOf(type);
  if (kind === undefined) return graphError(ctx, 131053, `Unsupported media type: ${type}.`);
  // A file part typed generically says nothing; a specific type must agree with `type`.
  const declared = file.contentType?.split(';')[0]?.trim().toLowerCase();
  if (declared !== undefined && declared !== 'application/octet-stream' && declared !== type.toLowerCase()) {
    return graphError(ctx, 131053, `The file is sent as ${declared} but type says ${type}.`);
  }
  if (file.data.length === 0) return graphError(ctx, 131053, 'The file is empty.');
  if (file.data.length > MAX_BYTES[kind]) {
    return graphError(ctx, 131053, `The file is ${file.data.length} bytes; ${kind} files may be at most ${MAX_BYTES[kind]} bytes.`);
  }
  const id = ctx.ids.mediaId();
  ctx.media.add({
    id,
    mimeType: type.toLowerCase(),
    kind,
    fileSize: file.data.length,
    sha256: createHash('sha256').update(file.data).digest('hex'),
    uploadedAt: ctx.scheduler.now(),
    phoneNumberId: number.config.phoneNumberId,
  });
  return { status: 200, body: { id } };
}

/**
 * The answer for a media id, or undefined when the id is no (live) media of a number of the
 * accounts the token reaches.
 */
export function getMedia(ctx: SimContext, reachable: readonly SimAccount[], id: string, query: URLSearchParams): HandlerAnswer | undefined {
  const now = ctx.scheduler.now();
  const record = ctx.media.get(id, now);
  if (record === undefined) return undefined;
  const owner = ctx.numbers.number(record.phoneNumberId);
  if (owner === undefined || !reachable.includes(owner.account)) return undefined;
  const phone = query.get('phone_number_id');
  if (phone !== null && phone !== record.phoneNumberId) {
    return graphError(ctx, 100, `Media ${id} was not uploaded on phone number ${phone}.`);
  }
  // Meta's download URL lives about five minutes; the simulator does not serve the bytes.
  const url = `https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=${id}&ext=${unixSeconds(now)}&hash=${record.sha256.slice(0, 16)}`;
  return {
    status: 200,
    body: {
      url,
      mime_type: record.mimeType,
      sha256: record.sha256,
      file_size: record.fileSize,
      id: record.id,
      messaging_product: 'whatsapp',
    },
  };
}

export function deleteMedia(
  ctx: SimContext,
  reachable: readonly SimAccount[],
  id: string,
  query: URLSearchParams,
): HandlerAnswer | undefined {
  const answer = getMedia(ctx, reachable, id, query);
  if (answer === undefined || answer.status !== 200) return answer;
  ctx.media.delete(id, ctx.scheduler.now());
  return { status: 200, body: { success: true } };
}
