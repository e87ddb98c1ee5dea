/**
 * The pages the cases measure in Chromium (bench/browser): built once per
 * process with Vite, served by `vite preview`, opened in Debian's Chromium
 * through playwright-core. Vite and Playwright are imported here only, and
 * only the cases that flag `loadsTools` import this module's functions, so
 * the other cases never load them.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../chromium.js';
import type { CaseContext } from '../case.js';

/** Debian's Chromium with the workspace's flags (chromium.ts at the root, shared with the tests): no browser is downloaded. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the Chromium cases need Chromium at ${CHROMIUM}: install Debian's chromium package, or set CHROMIUM_PATH`);
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The pages' build, made once per process: the sources do not change between rounds. */
let built: Promise<string> | undefined;

/**
 * Builds bench/browser for production with Vite into bench/results/browser.tmp
 * (git-ignored): its two pages (index.html, case 5; floor.html, case 2),
 * workspace packages from source (the `@aguikit/source` condition, as the
 * playground resolves them), and `react-dom/client` resolved to React's
 * profiling build, so that case 5's `<Profiler>`s report in an otherwise
 * production build (the development build is several times slower and would
 * not say what an application ships).
 */
function buildPages(ctx: CaseContext): Promise<string> {
  built ??= (async () => {
    const { build, defaultClientConditions } = await import('vite');
    const root = `${ctx.benchDir}browser`;
    const outDir = `${ctx.benchDir}results/browser.tmp`;
    await build({
      root,
      configFile: false,
      logLevel: 'error',
      mode: 'production',
      resolve: {
        conditions: ['@aguikit/source', ...defaultClientConditions],
        alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }],
        dedupe: ['react', 'react-dom'],
      },
      oxc: { jsx: { runtime: 'automatic' } },
      build: {
        outDir,
        emptyOutDir: true,
        reportCompressedSize: false,
        chunkSizeWarningLimit: 10_000,
        rolldownOptions: { input: { rendering: `${root}/index.html`, floor: `${root}/floor.html` } },
      },
    });
    return outDir;
  })();
  return built;
}

export interface PageServer {
  /** The root URL of the pages, ending with a slash. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the built pages. Cross-origin isolated (COOP and COEP headers), so
 * that a page's `performance.now()` has its finest resolution (5 µs rather
 * than 100 µs): case 2 times runs of a few milliseconds with it.
 */
export async function servePages(ctx: CaseContext): Promise<PageServer> {
  const outDir = await buildPages(ctx);
  const { preview } = await import('vite');
  const server = await preview({
    root: `${ctx.benchDir}browser`,
    configFile: false,
    logLevel: 'error',
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port: 0,
      strictPort: true,
      open: false,
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('vite preview reported no local URL.');
  }
  return { url: url.endsWith('/') ? url : `${url}/`, close: () => server.close() };
}
