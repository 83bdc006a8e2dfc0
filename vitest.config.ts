import { configDefaults, defineConfig } from 'vitest/config';

// scripts/packaging.test.ts runs electron-builder (20-45 s): npm test runs it once, as its own step
const packaging = 'scripts/packaging.test.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude:
      process.env['FIELDBOOK_PACKAGING'] === '1'
        ? configDefaults.exclude
        : [...configDefaults.exclude, packaging],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a test stuck in a loop that never yields fails within its timeout instead of hanging the run
    setupFiles: ['./scripts/watchdog/setup.ts'],
  },
});
