import { runCli } from './cli.js';

/** `npm run demo`: the same as `pacer demo`; PACER_DEMO_AUDIENCE and PACER_DEMO_DIR size and place it. */
const { PACER_DEMO_AUDIENCE: audience, PACER_DEMO_DIR: dir } = process.env;
process.exitCode = await runCli(['demo', ...(audience ? ['--audience', audience] : []), ...(dir ? ['--out', dir] : []), ...process.argv.slice(2)]);
