import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that kill Temporal's own services run on a cluster of their own: `npm run test:cluster`.
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files share one Temporal dev server and one PostgreSQL; each file gets its own database and task queue.
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
  },
});
