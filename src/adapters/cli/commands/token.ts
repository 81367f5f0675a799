import { TOKEN_SCOPES, type TokenScope } from '../../../app/api-scope.js';
import { createApiToken } from '../../../app/api-tokens.js';
import type { CliCommand, JsonOption } from '../cli-command.js';
import { CliFailure, EXIT } from '../exit-codes.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What each scope lets a token do, as `pacer token create` says it. */
const SCOPE_MEANS: Record<TokenScope, string> = {
  read: 'it can read everything but change nothing',
  write: 'it can change contacts, consent, campaigns and send messages',
  admin: 'it can do everything, the webhook replay included',
};

function scopeOption(value: string): TokenScope {
  const scope = TOKEN_SCOPES.find((s) => s === value.trim());
  if (scope === undefined) throw new CliFailure(`--scope must be one of ${TOKEN_SCOPES.join(', ')} (got "${value}")`, EXIT.usage);
  return scope;
}

export const tokenCreateCommand: CliCommand = {
  path: ['token', 'create'],
  define: (c) =>
    c
      .description('Create an API token and print it once: it cannot be shown again')
      .option('--name <name>', 'what the token is for, e.g. ci or dashboard', 'api')
      .option('--scope <scope>', 'read (sees everything, changes nothing), write (also changes and sends) or admin (everything)', 'read')
      .option('--json', 'JSON output: id, name, scope, token, createdAt'),
  run:
    ({ out, withStore, now }) =>
    async (opts: { name: string; scope: string } & JsonOption) => {
      const name = opts.name.trim();
      if (name === '' || name.length > 100) throw new CliFailure('--name must be 1-100 characters', EXIT.usage);
      const scope = scopeOption(opts.scope);
      await withStore(async (store) => {
        const t = await createApiToken(store, { name, scope }, now());
        out(
          opts.json
            ? JSON.stringify({ id: t.id, name: t.name, scope: t.scope, token: t.token, createdAt: new Date(t.createdAt).toISOString() })
            : `Token #${t.id} (${t.name}, scope ${t.scope}: ${SCOPE_MEANS[t.scope]}):\n${t.token}\nStore it now: Pacer keeps only its hash and cannot show it again. Send it as Authorization: Bearer <token>.${t.scope === 'read' ? '\nTo change or send through the API, create one with --scope write.' : ''}`,
        );
      });
    },
};

export const tokenListCommand: CliCommand = {
  path: ['token', 'list'],
  define: (c) =>
    c.description('List API tokens (names, scopes and dates; the tokens themselves are not stored)').option('--json', 'JSON output'),
  run:
    ({ out, withStore }) =>
    async (opts: JsonOption) => {
      await withStore(async (store) => {
        const rows = (await store.listApiTokens()).map((t) => ({
          id: t.id,
          name: t.name,
          scope: t.scope,
          createdAt: new Date(t.createdAt).toISOString(),
          revokedAt: isoOrNull(t.revokedAt),
        }));
        out(
          opts.json
            ? JSON.stringify(rows, null, 2)
            : rows.length === 0
              ? 'No API tokens.'
              : rows
                  .map((r) => `#${r.id}  ${r.name}  ${r.scope}  created ${r.createdAt}${r.revokedAt ? `  revoked ${r.revokedAt}` : ''}`)
                  .join('\n'),
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
