import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import type { TestProjectConfiguration } from 'vitest/config';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

const serverConditions = ['@aguikit/source', ...defaultServerConditions];
const clientConditions = ['@aguikit/source', ...defaultClientConditions];
const storybookDir = fileURLToPath(new URL('./.storybook', import.meta.url));

type Test = NonNullable<Extract<TestProjectConfiguration, { test?: unknown }>['test']>;

/** A project whose workspace packages resolve to their sources (server conditions for node, client ones for jsdom). */
const project = (conditions: string[], test: Test): TestProjectConfiguration => ({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test,
});

// A function, not a shared object: Vitest writes each project's name into its browser instances.
const inChromium = () => ({
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
  instances: [{ browser: 'chromium' as const }],
});

const jsdom = (name: string, root: string): Test => ({
  name,
  root,
  environment: 'jsdom',
  include: ['test/**/*.test.{ts,tsx}'],
  exclude: ['test/**/*.browser.test.tsx'],
  setupFiles: ['./test/setup.ts'],
});

/** The Vitest projects of the workspace (imported by vitest.config.ts: Vitest 4 does not read this file itself). */
export const projects: TestProjectConfiguration[] = [
  project(serverConditions, {
    name: 'core',
    root: './packages/core',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  }),
  project(serverConditions, { name: 'scenarios', root: './packages/scenarios', environment: 'node', include: ['test/**/*.test.ts'] }),
  project(serverConditions, { name: 'agent-server', root: './apps/agent-server', environment: 'node', include: ['test/**/*.test.ts'] }),
  // The benchmarks' own logic: the verdicts CI acts on, the report, the floor's work.
  project(serverConditions, { name: 'bench', root: './bench', environment: 'node', include: ['test/**/*.test.ts'] }),
  // The README against the example apps it quotes.
  project(serverConditions, { name: 'docs', root: './scripts', environment: 'node', include: ['test/**/*.test.ts'] }),
  project(clientConditions, jsdom('react', './packages/react')),
  project(clientConditions, jsdom('ui', './packages/ui')),
  {
    resolve: { conditions: clientConditions },
    test: {
      name: 'browser',
      include: ['packages/*/test/**/*.browser.test.tsx'],
      globalSetup: ['./packages/react/test/browser/agentServer.ts'],
      browser: inChromium(),
    },
  },
  {
    // Every story (and its play function) runs as a test in Chromium, with axe checking accessibility.
    plugins: [storybookTest({ configDir: storybookDir })],
    resolve: { conditions: clientConditions },
    // The first story waits for Vite to transform the whole of @aguikit/ui in the browser: on a busy two-core machine that alone can take 15 s.
    test: { name: 'storybook', browser: inChromium(), setupFiles: [`${storybookDir}/vitest.setup.ts`], testTimeout: 45_000 },
  },
  // The built playground in Chromium against the real agent server (apps/playground/e2e/setup.ts builds and serves it).
  project(serverConditions, {
    name: 'e2e',
    root: './apps/playground',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['./e2e/setup.ts'],
    setupFiles: ['./e2e/allowOrigin.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  }),
];
