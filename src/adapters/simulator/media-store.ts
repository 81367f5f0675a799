import { DAY, type Millis } from '../../core/time.js';
import type { HeaderMedia } from './template-send-check.js';
import type { MediaKind } from './template-shape.js';

/**
 * Media uploaded to the number (`POST /{PHONE_NUMBER_ID}/media`), the types and sizes Meta takes
 * (reference §4.2), and whether a template header's media is one Meta could fetch and use.
 */

export type UploadKind = 'audio' | 'document' | 'image' | 'sticker' | 'video';

const MB = 1024 * 1024;

/** MIME type → kind and the file extensions a link of that kind may end with (§4.2). */
const MEDIA_TYPES: Record<string, { kind: UploadKind; extensions: string[] }> = {
  'audio/aac': { kind: 'audio', extensions: ['aac'] },
  'audio/amr': { kind: 'audio', extensions: ['amr'] },
  'audio/mpeg': { kind: 'audio', extensions: ['mp3'] },
  'audio/mp4': { kind: 'audio', extensions: ['m4a'] },
  'audio/ogg': { kind: 'audio', extensions: ['ogg'] },
  'text/plain': { kind: 'document', extensions: ['txt'] },
  'application/vnd.ms-excel': { kind: 'document', extensions: ['xls'] },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { kind: 'document', extensions: ['xlsx'] },
  'application/msword': { kind: 'document', extensions: ['doc'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'document', extensions: ['docx'] },
  'application/vnd.ms-powerpoint': { kind: 'document', extensions: ['ppt'] },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': { kind: 'document', extensions: ['pptx'] },
  'application/pdf': { kind: 'document', extensions: ['pdf'] },
  'image/jpeg': { kind: 'image', extensions: ['jpg', 'jpeg'] },
  'image/png': { kind: 'image', extensions: ['png'] },
  'image/webp': { kind: 'sticker', extensions: ['webp'] },
  'video/3gpp': { kind: 'video', extensions: ['3gp'] },
  'video/mp4': { kind: 'video', extensions: ['mp4'] },
};

/**
 * Meta's maximum per kind, read as binary megabytes. A sticker may be 500 KB when animated and
 * 100 KB when static; the simulator does not look inside the file, so it allows the larger.
 */
export const MAX_BYTES: Record<UploadKind, number> = {
  audio: 16 * MB,
  document: 100 * MB,
  image: 5 * MB,
  sticker: 500 * 1024,
  video: 16 * MB,
};

/** Media ids from an upload expire after 30 days (§4.3). */
const MEDIA_ID_LIFETIME: Millis = 30 * DAY;

export function uploadKindOf(mimeType: string): UploadKind | undefined {
  return MEDIA_TYPES[mimeType.toLowerCase()]?.kind;
}

export interface MediaRecord {
  id: string;
  mimeType: string;
  kind: UploadKind;
  fileSize: number;
  sha256: string;
  uploadedAt: Millis;
  /** The number it was uploaded on; only its account's token reaches it. */
  phoneNumberId: string;
}

export class MediaStore {
  private readonly byId = new Map<string, MediaRecord>();

  add(record: MediaRecord): void {
    this.byId.set(record.id, record);
  }

  /** The media with that id, unless it was deleted or its 30 days are over. */
  get(id: string, now: Millis): MediaRecord | undefined {
    const record = this.byId.get(id);
    return record !== undefined && now - record.uploadedAt < MEDIA_ID_LIFETIME ? record : undefined;
  }

  delete(id: string, now: Millis): boolean {
    return this.get(id, now) !== undefined && this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }
}

/** The upload kinds a template header of each kind can show (a sticker is never a header). */
const HEADER_FITS: Record<MediaKind, UploadKind> = { image: 'image', video: 'video', document: 'document' };

/**
 * Why Meta could not fetch or use a header's media (then the message fails with 131053), or null.
 * A link must be an https URL whose path ends in an extension of the header's kind; an id must be
 * an unexpired upload of that kind.
 */
export function headerMediaProblem(store: MediaStore, media: HeaderMedia, now: Millis): string | null {
  const wanted = HEADER_FITS[media.kind];
  const header = `${media.kind === 'image' ? 'an' : 'a'} ${media.kind} header`;
  if ('id' in media) {
    const record = store.get(media.id, now);
    if (record === undefined) return `Media id ${media.id} was not found: it was never uploaded, was deleted or has expired.`;
    if (record.kind !== wanted) return `Media id ${media.id} is ${record.mimeType}, which ${header} cannot show.`;
    return null;
  }
  let url: URL;
  try {
    url = new URL(media.link);
  } catch {
    return `Media download error: ${media.link} is not an absolute URL.`;
  }
  if (url.protocol !== 'https:') return `Media download error: ${media.link} is not an https URL.`;
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  const fits = Object.values(MEDIA_TYPES).some((t) => t.kind === wanted && extension !== undefined && t.extensions.includes(extension));
  if (!fits) return `Media download error: ${media.link} does not name a file ${header} can show.`;
  return null;
}
