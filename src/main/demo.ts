import { runCli } from './cli.js';

/** `npm run demo`: the same as `pacer demo`, which PACER_DEMO_AUDIENCE and PACER_DEMO_DIR size and place. */
process.exitCode = await runCli(['demo', ...process.argv.slice(2)]);
