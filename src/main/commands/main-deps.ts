import type { CliDeps } from '../../adapters/cli/cli-command.js';
import type { Config } from '../../config/config.js';

/** The CLI's dependencies, with the configuration itself for the commands that wire a whole process. */
export interface MainDeps extends CliDeps {
  /** Loaded from the environment on first use, once, then frozen. */
  config: () => Config;
}
