import { createApiToken } from '../../../app/api-tokens.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const tokenCreateCommand: CliCommand = {
  path: ['token', 'create'],
  define: (c) =>
    c
      .description('Create an API token and print it once: it cannot be shown again')
      .option('--name <name>', 'what the token is for, e.g. ci or dashboard', 'api')
      .option('--json', 'JSON output: id, name, token, createdAt'),
  run:
    ({ out, withStore, now }) =>
    async (opts: { name: string } & JsonOption) => {
      const name = opts.name.trim();
      if (name === '' || name.length > 100) throw new CliFailure('--name must be 1-100 characters', EXIT.usage);
      await withStore(async (store) => {
        const t = await createApiToken(store, name, now());
        out(
          opts.json
            ? JSON.stringify({ id: t.id, name: t.name, token: t.token, createdAt: new Date(t.createdAt).toISOString() })
            : `Token #${t.id} (${t.name}):\n${t.token}\nStore it now: Pacer keeps only its hash and cannot show it again. Send it as Authorization: Bearer <token>.`,
        );
      });
    },
};

export const tokenListCommand: CliCommand = {
  path: ['token', 'list'],
  define: (c) => c.description('List API tokens (names and dates; the tokens themselves are not stored)').option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const rows = (await store.listApiTokens()).map((t) => ({
          id: t.id,
          name: t.name,
          createdAt: new Date(t.createdAt).toISOString(),
          revokedAt: isoOrNull(t.revokedAt),
        }));
        out(
          opts.json
            ? JSON.stringify(rows, null, 2)
            : rows.length === 0
              ? 'No API tokens.'
              : rows.map((r) => `#${r.id}  ${r.name}  created ${r.createdAt}${r.revokedAt ? `  revoked ${r.revokedAt}` : ''}`).join('\n'),
        );
      });
    },
};

export const tokenRevokeCommand: CliCommand = {
  path: ['token', 'revoke'],
  define: (c) =>
    c
      .description('Revoke an API token: requests with it get 401 from then on')
      .argument('<id>', 'the token id shown by pacer token list')
      .option('--json', 'JSON output'),
  run:
    ({ out, withStore, now }) =>
    async (id: string, opts: JsonOption) => {
      const n = Number(id);
      if (!Number.isInteger(n) || n < 1) throw new CliFailure('<id> is the token number shown by pacer token list', EXIT.usage);
      await withStore(async (store) => {
        if (!(await store.revokeApiToken(n, now()))) throw new CliFailure(`No active API token #${n}.`);
        out(opts.json ? JSON.stringify({ id: n, revoked: true }) : `Revoked API token #${n}.`);
      });
    },
};
