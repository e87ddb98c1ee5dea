import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import type { TestProjectConfiguration } from 'vitest/config';

const serverConditions = ['@aguikit/source', ...defaultServerConditions];
const clientConditions = ['@aguikit/source', ...defaultClientConditions];
const storybookDir = fileURLToPath(new URL('./.storybook', import.meta.url));

/** Debian's Chromium (.ci/run installs it); Playwright downloads no browser of its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without the background-networking flags Chromium floods a closed network with connections. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
    resolve: { conditions: serverConditions },
    ssr: { resolve: { conditions: serverConditions } },
    test: { name: 'scenarios', root: './packages/scenarios', environment: 'node', include: ['test/**/*.test.ts'] },
  },
  {
    resolve: { conditions: serverConditions },
    ssr: { resolve: { conditions: serverConditions } },
    test: { name: 'agent-server', root: './apps/agent-server', environment: 'node', include: ['test/**/*.test.ts'] },
  },
  {
    resolve: { conditions: clientConditions },
    ssr: { resolve: { conditions: clientConditions } },
    test: {
      name: 'react',
      root: './packages/react',
      environment: 'jsdom',
      include: ['test/**/*.test.{ts,tsx}'],
      exclude: ['test/**/*.browser.test.tsx'],
      setupFiles: ['./test/setup.ts'],
    },
  },
  {
    resolve: { conditions: clientConditions },
    ssr: { resolve: { conditions: clientConditions } },
    test: {
      name: 'ui',
      root: './packages/ui',
      environment: 'jsdom',
      include: ['test/**/*.test.{ts,tsx}'],
      exclude: ['test/**/*.browser.test.tsx'],
      setupFiles: ['./test/setup.ts'],
    },
  },
  {
    resolve: { conditions: clientConditions },
    test: {
      name: 'browser',
      include: ['packages/*/test/**/*.browser.test.tsx'],
      globalSetup: ['./packages/react/test/browser/agentServer.ts'],
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
        instances: [{ browser: 'chromium' }],
      },
    },
  },
  {
    // Every story (and its play function) runs as a test in Chromium, with axe checking accessibility.
    plugins: [storybookTest({ configDir: storybookDir })],
    resolve: { conditions: clientConditions },
    test: {
      name: 'storybook',
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
        instances: [{ browser: 'chromium' }],
      },
      setupFiles: [`${storybookDir}/vitest.setup.ts`],
    },
  },
  {
    // The built playground in Chromium against the real agent server (apps/playground/e2e/setup.ts builds and serves it).
    resolve: { conditions: serverConditions },
    ssr: { resolve: { conditions: serverConditions } },
    test: {
      name: 'e2e',
      root: './apps/playground',
      environment: 'node',
      include: ['e2e/**/*.e2e.test.ts'],
      globalSetup: ['./e2e/setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      fileParallelism: false,
    },
  },
];
