import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a test stuck in a loop that never yields fails within its timeout instead of hanging the run
    setupFiles: ['./scripts/watchdog/setup.ts'],
  },
});
