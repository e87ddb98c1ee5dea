import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `pnpm test:pack`: the packages as users get them (built, packed, installed
// with npm into the example apps outside the workspace). Slow (npm installs,
// `next build`), so apart from `pnpm test`; .ci/run runs both.
const report = process.env.TEST_REPORT;
const conditions = ['@aguikit/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'pack',
    root: './pack',
    environment: 'node',
    include: ['**/*.pack.test.ts'],
    globalSetup: ['./setup.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 600_000,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
