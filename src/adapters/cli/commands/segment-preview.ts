import { previewSegment } from '../../../app/segment-preview.js';
import { parseSegment } from '../../../app/segment-schema.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export const segmentPreviewCommand: CliCommand = {
  path: ['segment', 'preview'],
  define: (c) =>
    c
      .description('How many contacts a segment selects now, and how many of them cannot get marketing now')
      .requiredOption('--segment <json>', 'segment JSON')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (opts: { segment: string } & JsonOption) => {
      let segment;
      try {
        segment = parseSegment(JSON.parse(opts.segment), '--segment');
      } catch (error) {
        throw new CliFailure(error instanceof SyntaxError ? '--segment must be JSON' : (error as Error).message, EXIT.usage);
      }
      await withStore(async (store) => {
        const p = await previewSegment(store, segment, now());
        out(
          opts.json
            ? JSON.stringify(p)
            : `${p.matched} of ${p.contacts} contacts match; now cooling off ${p.matchedNow.cooling_off}, held ${p.matchedNow.held}, stopped ${p.matchedNow.stopped}, unreachable ${p.matchedNow.unreachable}.`,
        );
      });
    },
};
