import { defineConfig } from 'vitest/config';

/** `npm run test:chaos`: the long reliability runs, one file at a time (each starts several processes). */
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    passWithNoTests: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
