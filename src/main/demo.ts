import { runCli } from './cli.js';

/** `npm run demo`: the same as `pacer demo`, with PACER_DEMO_AUDIENCE to size it. */
const audience = process.env.PACER_DEMO_AUDIENCE;
process.exitCode = await runCli(['demo', ...(audience ? ['--audience', audience] : []), ...process.argv.slice(2)]);
