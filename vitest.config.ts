import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships ESM and CJS builds; vite would otherwise load both ("another module or realm").
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    // Gateway processes in tests run the compiled build: compile it when stale. Temporary
    // directories go under one of the run's own, removed at its end.
    globalSetup: ['test/support/build.ts', 'test/support/temp-dir.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Workers that keep their modules between files: the schema, Yoga and the worker's candle
    // memo (test/support/history.ts) are built once per worker, not once per file. Every test
    // file starts its own gateways on ephemeral ports and Redis key prefixes, so files do not
    // share state through modules. Three on a 2-core machine: many files wait on processes,
    // sockets and timers, and a third worker fills those waits (2: 105 s, 3: 95 s, 4: 101 s,
    // the fourth's module loading costing more than it fills).
    poolOptions: { forks: { minForks: 3, maxForks: 3, isolate: false } },
  },
});
