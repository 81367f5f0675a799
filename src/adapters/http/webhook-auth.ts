import { signatureHeaderProblem, verifySignature } from './webhook-signature.js';
import type { WebhookRejectReason } from './http-metrics.js';

export interface WebhookAuthConfig {
  /** Every secret currently accepted (several while one is being rotated out). */
  appSecrets: readonly string[];
  mode: 'production' | 'development';
}

export type WebhookAuth = { accept: true; signatureOk: boolean } | { accept: false; reason: WebhookRejectReason };

/**
 * Decides whether a POST may be stored. Signatures are always required when a secret is configured;
 * with none, production refuses everything and only development stores unsigned payloads, marked so.
 */
export function authenticateWebhook(raw: Uint8Array, header: string | string[] | undefined, config: WebhookAuthConfig): WebhookAuth {
  if (config.appSecrets.length === 0) {
    return config.mode === 'development' ? { accept: true, signatureOk: false } : { accept: false, reason: 'no_secret_configured' };
  }
  // A repeated header is not something Meta sends; refuse rather than pick one.
  if (Array.isArray(header)) return { accept: false, reason: 'malformed' };
  const check = verifySignature(raw, header, config.appSecrets);
  return check.ok ? { accept: true, signatureOk: true } : { accept: false, reason: check.reason };
}

/**
 * The refusal `authenticateWebhook` would give whatever the body, read from the header alone, so
 * that such a POST is answered before its body is buffered; null when only the body can tell.
 */
export function refusalBeforeBody(header: string | string[] | undefined, config: WebhookAuthConfig): WebhookRejectReason | null {
  if (config.appSecrets.length === 0) return config.mode === 'development' ? null : 'no_secret_configured';
  if (Array.isArray(header)) return 'malformed';
  return signatureHeaderProblem(header);
}

/** The 401 message for each reason; names the header, never echoes it. */
export function rejectMessage(reason: WebhookRejectReason): string {
  switch (reason) {
    case 'missing':
      return 'X-Hub-Signature-256 header is missing';
    case 'malformed':
      return 'X-Hub-Signature-256 header must be "sha256=" followed by 64 hex digits';
    case 'mismatch':
      return 'X-Hub-Signature-256 does not match the body for any configured app secret';
    case 'no_secret_configured':
      return 'no app secret is configured (WHATSAPP_APP_SECRET), so no webhook can be verified';
  }
}
