import { defaultClientConditions, defaultServerConditions } from 'vite';
import type { TestProjectConfiguration } from 'vitest/config';

const serverConditions = ['@aguikit/source', ...defaultServerConditions];
const clientConditions = ['@aguikit/source', ...defaultClientConditions];

/** The Vitest projects of the workspace (imported by vitest.config.ts: Vitest 4 does not read this file itself). */
export const projects: TestProjectConfiguration[] = [
  {
    resolve: { conditions: serverConditions },
    ssr: { resolve: { conditions: serverConditions } },
    test: {
      name: 'core',
      root: './packages/core',
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    },
  },
  {
    resolve: { conditions: clientConditions },
    ssr: { resolve: { conditions: clientConditions } },
    test: {
      name: 'react',
      root: './packages/react',
      environment: 'jsdom',
      include: ['test/**/*.test.{ts,tsx}'],
      setupFiles: ['./test/setup.ts'],
    },
  },
];
