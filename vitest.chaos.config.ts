import { defineConfig } from 'vitest/config';

/** `npm run test:chaos`: the long reliability runs, one file at a time (each starts several processes). */
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    passWithNoTests: false,
    // Above each run's drain deadline (360 s at most) plus the minute its outcomes may take to settle,
    // so a slow run fails with its own report, not a bare timeout.
    testTimeout: 480_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
