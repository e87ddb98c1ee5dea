import { defaultServerConditions } from 'vite';
import type { TestProjectConfiguration } from 'vitest/config';

const source = ['@aguikit/source', ...defaultServerConditions];

/** The Vitest projects of the workspace (imported by vitest.config.ts: Vitest 4 does not read this file itself). */
export const projects: TestProjectConfiguration[] = [
  {
    resolve: { conditions: source },
    ssr: { resolve: { conditions: source } },
    test: {
      name: 'core',
      root: './packages/core',
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    },
  },
];
