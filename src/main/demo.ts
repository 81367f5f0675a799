import path from 'node:path';
import { runDemo } from './demo/run-demo.js';

/** `npm run demo` / `pacer demo`: both strategies on the same simulated week, then the comparison. */
const audience = Number(process.env.PACER_DEMO_AUDIENCE ?? 50_000);
if (!Number.isInteger(audience) || audience < 100) {
  process.stderr.write('PACER_DEMO_AUDIENCE must be a whole number of at least 100\n');
  process.exit(2);
}
await runDemo({ audience, outDir: path.resolve(process.env.PACER_DEMO_DIR ?? 'data/demo'), out: (line) => process.stdout.write(`${line}\n`) });
