import type { SimContext } from './context.js';
import { errorText } from './error-texts.js';
import { apiErrorBody } from './payloads.js';

export interface HandlerAnswer {
  status: number;
  body: unknown;
}

/** A synchronous Graph API error, counted in ground truth. */
export function graphError(ctx: SimContext, code: number, details?: string): HandlerAnswer {
  ctx.truth.syncError(code);
  return { status: errorText(code).httpStatus, body: apiErrorBody(code, ctx.ids.fbtraceId(), details) };
}

/**
 * Graph's answer for an object the token cannot reach: one that does not exist, one of another
 * account, or one without the edge asked for. Graph words all three alike (code 100, subcode 33),
 * so a caller learns nothing about other accounts' objects.
 */
export function unsupportedRequest(ctx: SimContext, method: string | undefined, objectId: string): HandlerAnswer {
  ctx.truth.syncError(100);
  const verb = (method ?? 'get').toLowerCase();
  return {
    status: 400,
    body: {
      error: {
        message:
          `Unsupported ${verb} request. Object with ID '${objectId}' does not exist, cannot be loaded due to missing permissions, ` +
          'or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api',
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: ctx.ids.fbtraceId(),
      },
    },
  };
}

/** Graph's answer for a `fields=` name the node type does not have (in this API version). */
export function nonexistingField(ctx: SimContext, field: string, nodeType: string): HandlerAnswer {
  ctx.truth.syncError(100);
  return {
    status: 400,
    body: {
      error: {
        message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
        type: 'OAuthException',
        code: 100,
        fbtrace_id: ctx.ids.fbtraceId(),
      },
    },
  };
}
