import { z } from 'zod';
import type { ErrorClass } from '../../core/error-class.js';
import type { AcceptedStatus, ApiFailure, SendResult } from '../../ports/cloud-api.js';

const successBody = z.object({
  contacts: z.array(z.object({ input: z.string().optional(), wa_id: z.string().optional(), user_id: z.string().optional() })).optional(),
  messages: z.array(z.object({ id: z.string().min(1), message_status: z.string().optional() })).min(1),
});

const numericCode = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

const errorBody = z.object({
  error: z.object({
    code: numericCode,
    message: z.string().optional(),
    type: z.string().optional(),
    error_data: z.object({ details: z.string().optional() }).passthrough().optional(),
    fbtrace_id: z.string().optional(),
    is_transient: z.boolean().optional(),
    /** Graph's management endpoints (template edits) put the reason for a person here instead. */
    error_user_msg: z.string().optional(),
  }),
});

const ACCEPTED_STATUSES: readonly AcceptedStatus[] = ['accepted', 'held_for_quality_assessment', 'paused'];

export type ClassifyCode = (code: number) => ErrorClass;

/**
 * Turns an HTTP answer into a typed result. The error class comes from `error.code` alone: Meta's
 * HTTP statuses for the same code differ between sources, so the status is kept only for logs.
 */
export function parseSendResponse(httpStatus: number, rawBody: string, classify: ClassifyCode): SendResult {
  const read = readJson(httpStatus, rawBody, classify);
  if (read.kind !== 'json') return read;
  const json = read.json;

  const success = successBody.safeParse(json);
  if (success.success && httpStatus >= 200 && httpStatus < 300) {
    const message = success.data.messages[0];
    const contact = success.data.contacts?.[0];
    if (message !== undefined) {
      return {
        kind: 'accepted',
        wamid: message.id,
        messageStatus: acceptedStatus(message.message_status),
        waId: contact?.wa_id ?? null,
        userId: contact?.user_id ?? null,
        httpStatus,
      };
    }
  }

  return unexpectedBody(httpStatus, success.success ? 'a success body with a non-2xx status' : describeIssue(success.error));
}

export type { ApiFailure } from '../../ports/cloud-api.js';

/**
 * The first step for every Graph API answer: a body that is not JSON is a transport failure, and
 * Meta's error shape a rejection classified by `error.code`; anything else is handed back as JSON.
 */
export function readJson(httpStatus: number, rawBody: string, classify: ClassifyCode): ApiFailure | { kind: 'json'; json: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return {
      kind: 'transport_failure',
      reason: 'non_json',
      transient: true,
      detail: `HTTP ${httpStatus} with a body that is not JSON (${rawBody.length} bytes)`,
      httpStatus,
    };
  }
  const failure = errorBody.safeParse(json);
  if (!failure.success) return { kind: 'json', json };
  const e = failure.data.error;
  return {
    kind: 'rejected',
    code: e.code,
    errorClass: classify(e.code),
    message: e.message ?? '',
    type: e.type ?? null,
    details: e.error_data?.details ?? e.error_user_msg ?? null,
    fbtraceId: e.fbtrace_id ?? null,
    isTransient: e.is_transient ?? null,
    httpStatus,
  };
}

/** A 2xx answer whose JSON is not the shape asked for. */
export function unexpectedBody(httpStatus: number, where: string): ApiFailure {
  return { kind: 'transport_failure', reason: 'unexpected_body', transient: true, detail: `HTTP ${httpStatus}: ${where}`, httpStatus };
}

/**
 * A wamid means Meta took the message, so an unknown `message_status` still counts as accepted:
 * reading it as a failure would invite a duplicate send.
 */
function acceptedStatus(value: string | undefined): AcceptedStatus {
  return ACCEPTED_STATUSES.find((s) => s === value) ?? 'accepted';
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unrecognised body';
  const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `unrecognised body at ${path}: ${issue.message}`;
}
