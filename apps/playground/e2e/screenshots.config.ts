/**
 * `pnpm --filter @aguikit/playground screenshots`: the playground on a laptop
 * and a phone, light and dark, English and Simplified Chinese, with the refund
 * approval open and after approval, written to the repository's docs/screenshots/.
 * A config of its own, so the screenshots never run with the test suite.
 */
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@aguikit/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['e2e/screenshots.ts'],
    globalSetup: ['./e2e/setup.ts'],
    // The agent server answers the preview's origin, as in the e2e tests.
    setupFiles: ['./e2e/allowOrigin.ts'],
    testTimeout: 60_000,
    // One browser, one page at a time: the machine's CPUs are shared.
    fileParallelism: false,
    hookTimeout: 60_000,
  },
});
