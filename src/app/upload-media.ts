import { checkMediaFile, MEDIA_ID_LIFETIME_MS, type MediaFileKind } from '../core/media-limits.js';
import type { Millis } from '../core/time.js';
import type { ApiFailure, MediaApi } from '../ports/cloud-api.js';

export type UploadMediaResult =
  | { ok: true; id: string; mimeType: string; kind: MediaFileKind; bytes: number; expiresAt: Millis }
  | { ok: false; stage: 'check'; reason: string }
  | { ok: false; stage: 'upload'; failure: ApiFailure };

/**
 * Uploads a file for template headers (`pacer media upload`): refused here when Meta would refuse
 * its type or size, so nothing is sent that cannot be taken. The id lasts 30 days at Meta.
 */
export async function uploadMedia(
  api: MediaApi,
  phoneNumberId: string,
  /** `read` is called only once the name and size pass: a file Meta would refuse is never read. */
  file: { fileName: string; size: number; read: () => Promise<Uint8Array> },
  now: Millis,
): Promise<UploadMediaResult> {
  const check = checkMediaFile(file.fileName, file.size);
  if (!check.ok) return { ok: false, stage: 'check', reason: check.reason };
  const bytes = await file.read();
  const answer = await api.upload(phoneNumberId, { bytes, fileName: file.fileName, mimeType: check.mime });
  if (answer.kind !== 'ok') return { ok: false, stage: 'upload', failure: answer };
  return {
    ok: true,
    id: answer.id,
    mimeType: check.mime,
    kind: check.kind,
    bytes: bytes.byteLength,
    expiresAt: now + MEDIA_ID_LIFETIME_MS,
  };
}
