import path from 'node:path';
import type { Command } from 'commander';
import type { CliCommand } from '../../adapters/cli/cli-command.js';
import { CliFailure, EXIT } from '../../adapters/cli/exit-codes.js';
import { DEMO_AUDIENCE } from '../demo/demo-plan.js';
import { runDemo } from '../demo/run-demo.js';
import { labJson } from '../demo/run-lab.js';
import { asLabCommand } from './lab.js';
import type { MainDeps } from './main-deps.js';

export const demoCommand: CliCommand<MainDeps> = {
  path: ['demo'],
  define: (c) =>
    c
      .description("Run the demo: Pacer and three peers' ways of handling 131049 on the same simulated week (see README)")
      .option('--audience <n>', 'contacts in the simulated audience', String(DEMO_AUDIENCE))
      .option('--out <dir>', "the demo's folder: each run replaces the report and the Pacer databases in it", 'data/demo')
      .option('--json', 'print the table as JSON, as `pacer lab --json` does (progress goes to the terminal only)'),
  run:
    ({ out, config, terminal }) =>
    async (opts: { audience: string; out: string; json?: boolean }, command: Command) => {
      const { demo, storage } = config();
      // PACER_DEMO_AUDIENCE and PACER_DEMO_DIR stand in for the flags left out (npm run demo gives none).
      const given = (flag: string) => command.getOptionValueSource(flag) !== 'default';
      const audience = given('audience') || demo.audience === null ? Number(opts.audience) : demo.audience;
      if (!Number.isInteger(audience) || audience < 100)
        throw new CliFailure(
          `--audience must be a whole number of at least 100${/[/\\]|\.[a-z]+$/i.test(opts.audience) ? `; to run on your own file: pacer lab --audience ${opts.audience}` : ''}`,
          EXIT.usage,
        );
      const outDir = path.resolve(given('out') || demo.dir === null ? opts.out : demo.dir);
      const json = opts.json === true;
      const result = await asLabCommand(() =>
        runDemo({
          audience,
          outDir,
          out: json ? (line) => terminal?.write(`${line}\n`) : out,
          logErrors: demo.log,
          json,
          keepDataDir: storage.dataDir,
        }),
      );
      if (json) out(JSON.stringify(labJson(result), null, 2));
    },
};
