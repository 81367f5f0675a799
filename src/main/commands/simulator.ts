import type { CliCommand, JsonOption } from '../../adapters/cli/cli-command.js';
import { CliFailure, EXIT } from '../../adapters/cli/exit-codes.js';
import { startSimulator } from '../../adapters/simulator/index.js';
import type { MainDeps } from './main-deps.js';

interface SimulatorOptions {
  port: string;
  seed: string;
  population: string;
  callbackUrl?: string;
}

export const simulatorCommand: CliCommand<MainDeps> = {
  path: ['simulator'],
  define: (c) =>
    c
      .description('Run the Cloud API simulator on loopback in real time (point WHATSAPP_API_BASE_URL at it)')
      .option('--port <port>', 'port to listen on (0 picks one)', '4010')
      .option('--seed <n>', 'seed for the simulated population', '1')
      .option('--population <n>', 'simulated WhatsApp users', '1000')
      .option('--callback-url <url>', 'where to post webhooks, e.g. http://127.0.0.1:3000/webhooks/whatsapp')
      .option('--json', 'print the address and settings as JSON'),
  run:
    ({ out, config }) =>
    async (opts: SimulatorOptions & JsonOption) => {
      const port = Number(opts.port),
        seed = Number(opts.seed),
        size = Number(opts.population);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliFailure('--port must be 0-65535', EXIT.usage);
      if (!Number.isInteger(seed) || !Number.isInteger(size) || size < 1)
        throw new CliFailure('--seed and --population must be whole numbers', EXIT.usage);
      // It signs webhooks with the first app secret and expects the access token, as Meta would.
      const {
        appSecrets: [secret],
        accessToken,
      } = config().whatsapp;
      const sim = await startSimulator({
        seed,
        port,
        population: { size },
        callbackUrl: opts.callbackUrl ?? null,
        ...(secret ? { appSecret: secret } : {}),
        ...(accessToken ? { accessToken } : {}),
      });
      const info = {
        url: sim.url,
        phoneNumberId: sim.config.phoneNumberId,
        wabaId: sim.config.wabaId,
        users: sim.users.length,
        callbackUrl: sim.config.callbackUrl,
      };
      out(
        opts.json
          ? JSON.stringify(info)
          : `Cloud API simulator on ${sim.url} (phone number id ${info.phoneNumberId}, ${info.users} users); webhooks to ${info.callbackUrl ?? 'nowhere'}. Ctrl-C stops it.`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.stop();
    },
};
