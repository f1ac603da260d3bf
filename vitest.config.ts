import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One command (`npm test`, `vitest run`) runs the four layers of ARCHITECTURE.md "Tests" as Vitest
// projects; `vitest run --project <name>` runs one. Only integration and e2e start DynamoDB Local
// (test/fixtures/global-setup.ts, one instance shared by both); unit and infra need no Java.
const DYNAMODB_LOCAL = 'test/fixtures/global-setup.ts';
const DROP_TABLES = 'test/fixtures/drop-tables.ts';

export default defineConfig({
  test: {
    // Inherited by every project (`extends: true`); the root declares no globalSetup, since Vitest
    // runs the root's global setup on every run, whichever projects are selected.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The functions' JSON log lines (Powertools, shared/observability) go to stdout, not through
    // console: tests show only errors, and no metrics lines (tests that read them set their own).
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
    // Vitest's default is one worker fewer than the cores, so 1 on CI's 2 cores: the integration
    // and e2e files then ran one after the other while the test process and DynamoDB Local took
    // turns on the CPU. Two workers overlap them (each file has its own table, its own port).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: [DYNAMODB_LOCAL],
          setupFiles: [DROP_TABLES],
        },
      },
      // e2e: every response is checked against its published schema (test/fixtures/response-schemas.ts).
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: [DYNAMODB_LOCAL, 'test/fixtures/response-coverage.ts'],
          setupFiles: [DROP_TABLES, 'test/fixtures/response-schema-setup.ts'],
        },
      },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'] } },
      // browser: the hosted pages in Debian's chromium (playwright-core), one browser per file, files
      // one after the other (2 cores); stops at once with how to install Chromium when it is missing.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/fixtures/browser-global-setup.ts', DYNAMODB_LOCAL],
          setupFiles: [DROP_TABLES],
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
