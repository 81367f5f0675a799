import type { Millis } from '../../../core/time.js';

/** `2026-01-05 09:00 UTC`: one zone for every operator, the one the logs use. */
export function when(ms: Millis | null): string {
  if (ms === null) return '—';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function day(ms: Millis): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `12.5%` of `whole`, or `—` when there is nothing to divide. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '—';
  return `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}

/** A positive whole number from a query or route parameter, or null. */
export function positiveInt(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 ? n : null;
}
