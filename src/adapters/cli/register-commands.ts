import type { Command } from 'commander';
import type { CliCommand } from './cli-command.js';

/** Adds the commands to `program` in table order, making each group (with its description) on first use. */
export function registerCommands<D>(
  program: Command,
  groups: Readonly<Record<string, string>>,
  commands: readonly CliCommand<D>[],
  deps: D,
): void {
  const made = new Map<string, Command>();
  for (const c of commands) {
    const [first, second] = c.path;
    let parent = program;
    if (second !== undefined) {
      const description = groups[first];
      if (description === undefined) throw new Error(`pacer ${first}: a command group needs a description`);
      parent = made.get(first) ?? program.command(first).description(description);
      made.set(first, parent);
    }
    // Commander passes the arguments as declared by `define`; each action names their types.
    c.define(parent.command(second ?? first)).action(c.run(deps) as (...args: unknown[]) => void | Promise<void>);
  }
}
