import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The reliability runs on real time (kills at random moments, faults, storms at scale): `npm run test:chaos`.
    exclude: [...configDefaults.exclude, 'test/chaos/**'],
    passWithNoTests: false,
    // A guard against hangs, not a speed check: with two files sharing two cores, a multi-worker
    // engine test that takes 15 s alone once took over 30 s while the machine was also busy.
    testTimeout: 60_000,
    pool: 'forks',
    // Vitest's default (cores − 1) is one file at a time on two cores, yet a file spends much of its
    // time waiting on PostgreSQL, child processes and loopback HTTP: two at a time took the suite from
    // 848 s to 547 s on a 2-core machine. Every test file keeps to its own schema and data directory.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
