#!/usr/bin/env node
// Runs the compiled CLI when built (npm run build), otherwise the TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/main/cli.js', import.meta.url));
let cli;
if (existsSync(compiled)) {
  cli = await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/main/cli.ts');
}
process.exitCode = await cli.runCli(process.argv.slice(2));
