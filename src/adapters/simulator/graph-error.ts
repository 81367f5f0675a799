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
