import { createHash } from 'node:crypto';

const MAX_IDENTIFIER = 63;

/**
 * The NOTIFY channel of one schema's queued work: named after the schema, so two installs in one
 * database never wake each other. A name past PostgreSQL's 63 bytes would be cut short by LISTEN
 * (and refused by pg_notify), so a long schema name is hashed instead.
 */
export function workChannel(schema: string): string {
  const plain = `pacer_work_${schema}`;
  if (plain.length <= MAX_IDENTIFIER) return plain;
  return `pacer_work_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}
