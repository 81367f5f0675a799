import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeFailure } from '../../../app/sync-templates.js';
import { uploadMedia } from '../../../app/upload-media.js';
import { iso } from '../../../core/time.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

/** `pacer media upload FILE`: a media id for a template header (`--param header=media:ID`). */
export const mediaUploadCommand: CliCommand = {
  path: ['media', 'upload'],
  define: (c) =>
    c
      .description('Upload an image, video or document for template headers; prints its media id (Meta keeps it 30 days)')
      .argument('<file>', 'the file: .jpg/.png up to 5 MB, .mp4/.3gp up to 16 MB, .pdf and office documents up to 100 MB')
      .option('--json', 'JSON output'),
  run:
    ({ out, now, mediaAccount }) =>
    async (file: string, opts: JsonOption) => {
      const { phoneNumberId, api } = mediaAccount();
      try {
        const info = await stat(file).catch(() => null);
        if (info === null || !info.isFile()) throw new CliFailure(`${file}: no such file`, EXIT.usage);
        const r = await uploadMedia(
          api,
          phoneNumberId,
          { fileName: path.basename(file), size: info.size, read: () => readFile(file) },
          now(),
        );
        if (!r.ok && r.stage === 'check') throw new CliFailure(r.reason, EXIT.usage);
        if (!r.ok) throw new CliFailure(`upload failed, nothing was stored at Meta: ${describeFailure(r.failure)}`, EXIT.failure);
        const result = { id: r.id, mimeType: r.mimeType, kind: r.kind, bytes: r.bytes, expiresAt: iso(r.expiresAt) };
        out(
          opts.json
            ? JSON.stringify(result)
            : `Uploaded ${path.basename(file)} (${r.mimeType}, ${r.bytes} bytes): media id ${r.id}, valid until ${result.expiresAt}.\nUse it in a campaign with --param header=media:${r.id}`,
        );
      } finally {
        await api.close();
      }
    },
};
