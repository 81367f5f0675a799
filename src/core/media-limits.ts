/**
 * What Meta takes as uploaded media (reference §4.2): the type by file extension, and each kind's
 * largest file. Checked before an upload, so a file Meta would refuse is refused here with why.
 */
export type MediaFileKind = 'audio' | 'document' | 'image' | 'sticker' | 'video';

const MB = 1024 * 1024;

export const MEDIA_TYPES: Readonly<Record<string, { mime: string; kind: MediaFileKind }>> = {
  aac: { mime: 'audio/aac', kind: 'audio' },
  amr: { mime: 'audio/amr', kind: 'audio' },
  mp3: { mime: 'audio/mpeg', kind: 'audio' },
  m4a: { mime: 'audio/mp4', kind: 'audio' },
  ogg: { mime: 'audio/ogg', kind: 'audio' },
  txt: { mime: 'text/plain', kind: 'document' },
  xls: { mime: 'application/vnd.ms-excel', kind: 'document' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', kind: 'document' },
  doc: { mime: 'application/msword', kind: 'document' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'document' },
  ppt: { mime: 'application/vnd.ms-powerpoint', kind: 'document' },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', kind: 'document' },
  pdf: { mime: 'application/pdf', kind: 'document' },
  jpg: { mime: 'image/jpeg', kind: 'image' },
  jpeg: { mime: 'image/jpeg', kind: 'image' },
  png: { mime: 'image/png', kind: 'image' },
  webp: { mime: 'image/webp', kind: 'sticker' },
  '3gp': { mime: 'video/3gpp', kind: 'video' },
  mp4: { mime: 'video/mp4', kind: 'video' },
};

/** Largest file per kind; stickers: the animated limit (a static one over 100 KB is Meta's to refuse). */
export const MEDIA_MAX_BYTES: Readonly<Record<MediaFileKind, number>> = {
  audio: 16 * MB,
  document: 100 * MB,
  image: 5 * MB,
  sticker: 500 * 1024,
  video: 16 * MB,
};

export type MediaCheck = { ok: true; mime: string; kind: MediaFileKind } | { ok: false; reason: string };

function size(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function checkMediaFile(fileName: string, bytes: number): MediaCheck {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const type = MEDIA_TYPES[ext];
  if (type === undefined) {
    return {
      ok: false,
      reason: `${fileName}: WhatsApp does not take .${ext || '(no extension)'} files; it takes ${Object.keys(MEDIA_TYPES).join(', ')}`,
    };
  }
  if (bytes === 0) return { ok: false, reason: `${fileName} is empty` };
  const max = MEDIA_MAX_BYTES[type.kind];
  if (bytes > max) return { ok: false, reason: `${fileName} is ${size(bytes)}; WhatsApp takes ${type.kind} files up to ${size(max)}` };
  return { ok: true, ...type };
}

/** Meta keeps an uploaded media id for 30 days (reference §4.3). */
export const MEDIA_ID_LIFETIME_MS = 30 * 24 * 3600 * 1000;
