import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      'server-only': path.resolve(import.meta.dirname, 'tests/support/server-only.ts'),
    },
  },
  test: {
    // Component tests (`.test.tsx`) run under happy-dom by their `// @vitest-environment happy-dom` comment.
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    pool: 'forks',
    // next-intl's navigation imports `next/navigation` without an extension, which Node's ESM resolver refuses;
    // inlined (https://vitest.dev/config/#server-deps-inline), Vite's resolver finds it.
    server: { deps: { inline: ['next-intl'] } },
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    fileParallelism: false,
    testTimeout: 20_000,
    // Many tests pay for the same few numbers: caps high enough for the suite; tests of the caps fill them up.
    // TWILIO_AUTH_TOKEN: a test secret, so the status-callback signature check can be exercised.
    env: {
      SMS_MAX_PER_TARGET_PER_DAY: '50',
      SMS_MAX_PER_BUYER_PER_DAY: '50',
      SMS_GLOBAL_DAILY_CAP: '100000',
      TWILIO_AUTH_TOKEN: 'test-auth-token-0123456789',
      // One JSON line per request would bury the test report; errors still show.
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: 'test-metrics-token-0123456789',
      // No request leaves the machine: tests of the Pwned Passwords check point it at a local fake.
      PWNED_PASSWORDS_URL: 'off',
    },
    hookTimeout: 60_000,
  },
});
