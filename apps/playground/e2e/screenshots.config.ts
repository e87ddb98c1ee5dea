/**
 * `pnpm --filter @aguikit/playground screenshots`: the playground in light and
 * dark, mid refund flow and after approval, written to the repository's docs/.
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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
