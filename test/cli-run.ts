import { runCli } from '../src/main/cli.js';

/** Runs `pacer` in-process and collects what it printed, for CLI tests. */
export async function runPacer(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (t) => out.push(t),
    (t) => err.push(t),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
