import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

// .ci/run sets TEST_REPORT to a path: the JSON report there gives it the pass/fail counts.
const report = process.env.TEST_REPORT;

export default defineConfig({
  test: {
    projects,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
