import type { CliCommand, JsonOption } from '../../adapters/cli/cli-command.js';
import { CliFailure, EXIT } from '../../adapters/cli/exit-codes.js';
import { simulatedAccounts, startSimulator, type SimAccountConfig } from '../../adapters/simulator/index.js';
import type { MainDeps } from './main-deps.js';

interface SimulatorOptions {
  port: string;
  seed: string;
  population: string;
  callbackUrl?: string;
  numbers: string;
  accounts: string;
}

const DEFAULT_TOKEN = 'sim-access-token';
const DEFAULT_SECRET = 'sim-app-secret';

/**
 * How to write account k's token or app secret without printing a secret: the variable it comes
 * from (with `-k` after it from the second account on), or the simulator's own default, which is none.
 */
function hint(k: number, fromEnv: string | null, fallback: string): string {
  const base = fromEnv ?? fallback;
  return k === 0 ? base : `${base}-${k + 1}`;
}

function wholeNumber(flag: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new CliFailure(`${flag} must be a whole number from 1 to ${max}`, EXIT.usage);
  return n;
}

export const simulatorCommand: CliCommand<MainDeps> = {
  path: ['simulator'],
  define: (c) =>
    c
      .description('Run the Cloud API simulator on loopback in real time (point WHATSAPP_API_BASE_URL at it)')
      .option('--port <port>', 'port to listen on (0 picks one)', '4010')
      .option('--seed <n>', 'seed for the simulated population', '1')
      .option('--population <n>', 'simulated WhatsApp users', '1000')
      .option('--numbers <n>', 'business phone numbers in each account (1-100)', '1')
      .option('--accounts <n>', 'WhatsApp Business Accounts, each with its own token <token>-<k> and app secret <secret>-<k> (1-50)', '1')
      .option('--callback-url <url>', 'where to post webhooks, e.g. http://127.0.0.1:3000/webhooks/whatsapp')
      .option('--json', 'print the address, the accounts and their numbers as JSON'),
  run:
    ({ out, config }) =>
    async (opts: SimulatorOptions & JsonOption) => {
      const port = Number(opts.port),
        seed = Number(opts.seed),
        size = Number(opts.population);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliFailure('--port must be 0-65535', EXIT.usage);
      if (!Number.isInteger(seed) || !Number.isInteger(size) || size < 1)
        throw new CliFailure('--seed and --population must be whole numbers', EXIT.usage);
      const numbers = wholeNumber('--numbers', opts.numbers, 100);
      const accountCount = wholeNumber('--accounts', opts.accounts, 50);
      // The first account signs webhooks with the first app secret and expects the access token, as
      // Meta would; the others add `-k` to both, so WHATSAPP_APP_SECRET can list them all.
      const {
        appSecrets: [secret],
        accessToken,
      } = config().whatsapp;
      const accounts = simulatedAccounts({
        accounts: accountCount,
        numbers,
        accessToken: accessToken ?? DEFAULT_TOKEN,
        appSecret: secret ?? DEFAULT_SECRET,
      });
      const sim = await startSimulator({ seed, port, population: { size }, callbackUrl: opts.callbackUrl ?? null, accounts });
      const described = sim.config.accounts.map((a: SimAccountConfig, k) => ({
        wabaId: a.wabaId,
        portfolioId: a.portfolioId,
        messagingLimit: a.messagingLimit,
        tokenHint: hint(k, accessToken === null ? null : '$WHATSAPP_ACCESS_TOKEN', DEFAULT_TOKEN),
        appSecretHint: hint(k, secret === undefined ? null : '$WHATSAPP_APP_SECRET', DEFAULT_SECRET),
        numbers: a.numbers.map((n) => ({
          phoneNumberId: n.phoneNumberId,
          displayPhoneNumber: n.displayPhoneNumber,
          verifiedName: n.verifiedName,
          throughputMps: n.throughputMps,
        })),
      }));
      const info = {
        url: sim.url,
        phoneNumberId: sim.config.phoneNumberId,
        wabaId: sim.config.wabaId,
        users: sim.users.length,
        callbackUrl: sim.config.callbackUrl,
        accounts: described,
      };
      out(
        opts.json
          ? JSON.stringify(info)
          : [
              `Cloud API simulator on ${sim.url} (phone number id ${info.phoneNumberId}, ${info.users} users); webhooks to ${info.callbackUrl ?? 'nowhere'}. Ctrl-C stops it.`,
              ...described.map(
                (a, k) =>
                  `  account ${k + 1}: WABA ${a.wabaId}, token ${a.tokenHint}, app secret ${a.appSecretHint}; numbers ${a.numbers
                    .map((n) => `${n.phoneNumberId} (+${n.displayPhoneNumber})`)
                    .join(', ')}`,
              ),
            ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.stop();
    },
};
