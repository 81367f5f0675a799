/** A configuration that cannot be used; the message names what to fix and never echoes a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
