import type { ImportProgress } from '../../app/import-contacts.js';

export interface ProgressBarOptions {
  /** Where the bar is drawn; it redraws one line with a carriage return. */
  write: (text: string) => void;
  /** Milliseconds; injected so tests drive time. */
  now: () => number;
  label: string;
  /** Nothing is drawn before this delay, so small files print no bar at all. */
  delayMs?: number;
  width?: number;
}

export interface ProgressBar {
  update(progress: ImportProgress): void;
  /** Clears the line if anything was drawn. */
  done(): void;
}

const REDRAW_MS = 200;

/** A one-line progress bar: share of bytes read, rows per second, bytes read of the total. */
export function createProgressBar(options: ProgressBarOptions): ProgressBar {
  const start = options.now();
  const delay = options.delayMs ?? 500;
  let lastDraw = -Infinity;
  let drawn = false;
  return {
    update(progress) {
      const t = options.now();
      if (t - start < delay || t - lastDraw < REDRAW_MS) return;
      lastDraw = t;
      drawn = true;
      options.write(`\r${formatProgress(options.label, progress, t - start, options.width ?? 24)}\u001b[K`);
    },
    done() {
      if (drawn) options.write('\r\u001b[K');
    },
  };
}

export function formatProgress(label: string, p: ImportProgress, elapsedMs: number, width: number): string {
  const share = p.totalBytes > 0 ? Math.min(p.bytesRead / p.totalBytes, 1) : 1;
  const filled = Math.round(share * width);
  const rate = elapsedMs > 0 ? Math.round((p.rows * 1000) / elapsedMs) : 0;
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(share * 100)}%  ${p.rows.toLocaleString('en-US')} rows  ${rate.toLocaleString('en-US')} rows/s  ${bytes(p.bytesRead)} of ${bytes(p.totalBytes)}`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
