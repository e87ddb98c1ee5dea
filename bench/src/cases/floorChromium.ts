import type { Browser } from 'playwright-core';
import type { FloorPageOutcome } from '../../browser/floor.js';
import type { BenchCase, CaseContext, CaseRound } from '../case.js';
import { fmt } from '../stats.js';
import { launchChromium, servePages } from './chromiumPages.js';
import { FLOOR_FIGURES, FLOOR_RATIOS, floorBar, floorRound } from './floorTasks.js';

const PAGE_TIMEOUT_MS = 120_000;

/**
 * Case 2 again where the kit runs: in Chromium. The same tasks, the same
 * events and bytes; a browser reads a response body, decodes text, queues
 * microtasks and collects garbage with machinery of its own, so the figures
 * (and what each step weighs) differ from Node's. The bar is checked on both
 * runs: the claim is about the kit wherever it runs.
 */
export const floorChromiumCase: BenchCase = {
  number: 2,
  id: 'floor-chromium',
  title: 'The floor in Chromium',
  method: [
    "The tasks of case 2, unchanged (bench/src/cases/floorTasks.ts), run by a page (bench/browser/floor.html, built for production by Vite) in Debian's Chromium (headless, through playwright-core), each round in a fresh browser (`--quick`: the first round only). The `Response` and the `ReadableStream` of its body are the browser's own classes, the stream made by the page with its chunks already queued (as in Node; a network body is read through the same reader). The store's default scheduler waits for an animation frame, which a run whose bytes are all there never yields to: every read resolves on a microtask, so in the batched task the run's terminal event flushes the whole stream at once.",
    "Times are the page's wall clock (`performance.now()`, the page cross-origin isolated so that it reads to 5 µs), not CPU time: a browser tab has no CPU clock. The tasks alternate pass by pass as in Node, so a pause of the page (another process on the core) lands on one pass of each, and each task's 25th percentile stands for it in a round.",
  ].join('\n\n'),
  deterministic: false,
  loadsTools: true,
  figures: FLOOR_FIGURES,
  ratios: FLOOR_RATIOS,
  bars: [floorBar('in Chromium, where the kit runs; the floor reads the response body, as in Node')],

  async run(ctx: CaseContext): Promise<CaseRound> {
    // Quick mode (CI) measures it in its first round only (its bar has no margin then); its spread comes from full runs.
    if (ctx.quick && ctx.round > 1) return { figures: {}, ratios: {} };
    const server = await servePages(ctx);
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${server.url}floor.html?quick=${ctx.quick ? 1 : 0}`);
      await page.waitForFunction(() => window.__aguikitFloor !== undefined, undefined, { timeout: PAGE_TIMEOUT_MS });
      const outcome: FloorPageOutcome | undefined = await page.evaluate(() => window.__aguikitFloor);
      if (!outcome?.times) throw new Error(`case 2 in Chromium: the page failed: ${outcome?.error ?? 'no times'}`);
      if (problems.length) throw new Error(`case 2 in Chromium: the page reported errors: ${problems.join('; ')}`);
      if (!outcome.isolated) throw new Error('case 2 in Chromium: the page is not cross-origin isolated, so its clock is coarse');
      const round = floorRound(outcome.times);
      const f = (k: string) => fmt(round.figures[k] ?? Number.NaN);
      ctx.log(`  floor ${f('floor')} µs/token (${f('floorInMemory')} in memory), aguikit ${f('aguikit')} µs/token`);
      return round;
    } finally {
      await browser?.close();
      await server.close();
    }
  },
};
