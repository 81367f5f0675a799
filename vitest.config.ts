import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The reliability runs on real time (kills at random moments, faults, storms at scale): `npm run test:chaos`.
    exclude: [...configDefaults.exclude, 'test/chaos/**'],
    passWithNoTests: false,
    testTimeout: 30_000,
    pool: 'forks',
  },
});
