import type { CliCommand, JsonOption } from '../cli-command.js';

export const dbMigrateCommand: CliCommand = {
  path: ['db', 'migrate'],
  define: (c) => c.description('Apply pending migrations (safe when several processes start at once)').option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const r = await store.migrate();
        out(
          opts.json
            ? JSON.stringify(r)
            : r.applied.length === 0
              ? `Schema is current (version ${r.current}).`
              : `Applied migrations ${r.applied.join(', ')}; schema at version ${r.current}.`,
        );
      }, false);
    },
};
