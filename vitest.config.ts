import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships ESM and CJS builds; vite would otherwise load both ("another module or realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    // Gateway processes in tests run the compiled build: compile it when stale.
    globalSetup: ['test/support/build.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
