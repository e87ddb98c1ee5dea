import type { Browser } from 'playwright-core';
import type { PageParams, PageRecord, Variant } from '../../browser/record.js';
import type { BenchCase, CaseContext, CaseRound, CaseSummary } from '../case.js';
import { fmt } from '../stats.js';
import { launchChromium, servePages } from './chromiumPages.js';

/** 999 messages restated, then the 1,000th streamed: a 1,000-message thread whose last message streams. */
const HISTORY = 999;
const TOKENS = 5_000;
const RATE = 5_000;
/** A `longtask` entry is a task over 50 ms: the browser's threshold, and the issue's. */
const LONG_TASK_MS = 50;
const VIEWPORT = { width: 1280, height: 860 };
const PAGE_TIMEOUT_MS = 60_000;

/** Opens the page once, in a fresh context, and returns what it recorded; any error on the page fails the case. */
async function runPage(browser: Browser, url: string, params: PageParams): Promise<PageRecord> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    await page.goto(`${url}?${search}`);
    await page.waitForFunction(() => window.__aguikitRendering !== undefined, undefined, { timeout: PAGE_TIMEOUT_MS });
    const outcome = await page.evaluate(() => window.__aguikitRendering);
    if (!outcome?.record) throw new Error(`case 5: the page failed: ${outcome?.error ?? 'no record'}`);
    if (problems.length) throw new Error(`case 5: the page reported errors: ${problems.join('; ')}`);
    return outcome.record;
  } finally {
    await context.close();
  }
}

/** The run must have ended cleanly with the whole text on screen, or no figure means anything. */
function check(record: PageRecord, variant: Variant): void {
  const { check: c, marks } = record;
  const problems = [
    c.messages !== record.params.history + 1 && `${c.messages} messages`,
    c.diagnostics !== 0 && `${c.diagnostics} diagnostics`,
    c.runStatus !== 'success' && `run ${c.runStatus}`,
    c.storedChars !== c.expectedChars && `${c.storedChars} of ${c.expectedChars} characters stored`,
    !c.shown && 'the end of the text is not shown',
    Number.isNaN(marks.done) && 'no commit showed the whole text',
  ].filter(Boolean);
  if (problems.length) throw new Error(`case 5 (${variant}): the stream did not render cleanly: ${problems.join(', ')}`);
}

const max = (values: readonly number[]) => values.reduce((m, v) => Math.max(m, v), 0);

/**
 * Figures of one page. The stream's window runs from TEXT_MESSAGE_START to
 * TEXT_MESSAGE_END, which the page sends 250 ms after the last delta, so the
 * frames that show the last deltas are in it. Frame k spans from the start
 * of its animation-frame callbacks to the start of the next frame's: a
 * commit belongs to the frame interval it happens in.
 */
function analyze(record: PageRecord) {
  const { marks, frames, commits } = record;
  const { start, last, end } = marks;
  const inWindow = (t: number) => t >= start && t < end;
  const frameOf = (t: number) => {
    let lo = 0;
    let hi = frames.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((frames[mid] ?? Number.POSITIVE_INFINITY) <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const perFrame = (indices: Iterable<number>) => {
    const counts = new Map<number, number>();
    for (const i of indices) {
      const at = commits[i]?.at ?? Number.NaN;
      if (inWindow(at)) counts.set(frameOf(at), (counts.get(frameOf(at)) ?? 0) + 1);
    }
    return [...counts.values()];
  };
  const windowCommits = commits.flatMap((c, i) => (inWindow(c.at) ? [i] : []));
  const commitsPerFrame = perFrame(windowCommits);
  const windowFrames = frames.filter(inWindow).length;
  let longestFrame = 0;
  for (let k = 0; k + 1 < frames.length; k++) {
    const f = frames[k] ?? 0;
    if (inWindow(f)) longestFrame = Math.max(longestFrame, (frames[k + 1] ?? f) - f);
  }
  const tasks = (from: number, to: number) => record.longTasks.filter((t) => t.start < to && t.start + t.duration > from);
  const streamTasks = tasks(start, end);
  const renders = record.messageRenders.filter((r) => inWindow(r.at));
  const others = renders.filter((r) => r.id !== record.streamedId);
  const streamed = renders.filter((r) => r.id === record.streamedId);
  const withMessages = new Set(renders.map((r) => r.commit));
  const rerendered = [...new Set(others.filter((r) => r.phase !== 'mount').map((r) => r.id))];
  const streamMs = last - start;
  return {
    chat: {
      maxCommitsPerFrame: max(commitsPerFrame),
      commits: windowCommits.length,
      frames: windowFrames,
      framesOverOne: commitsPerFrame.filter((n) => n > 1).length,
      fps: (windowFrames * 1000) / (end - start),
      longestTask: max(streamTasks.map((t) => t.duration)),
      longTasks: streamTasks.length,
      longestFrame,
      longestRender: max(windowCommits.map((i) => commits[i]?.renderMs ?? 0)),
      streamMs,
      snapshotTask: max(tasks(marks.snapshot, start).map((t) => t.duration)),
    },
    parts: {
      otherRenders: others.filter((r) => r.phase !== 'mount').length,
      otherMounts: others.filter((r) => r.phase === 'mount').length,
      streamedRenders: streamed.length,
      streamedMaxPerFrame: max(perFrame(new Set(streamed.map((r) => r.commit)))),
      listOnlyCommits: record.listCommits.filter((i) => inWindow(commits[i]?.at ?? Number.NaN) && !withMessages.has(i)).length,
      deltasPerRender: record.params.tokens / Math.max(1, streamed.length),
    },
    rerendered,
  };
}

type Analysis = ReturnType<typeof analyze>;

export const renderingCase: BenchCase = {
  number: 5,
  id: 'rendering',
  title: 'Rendering in real Chromium',
  method: [
    `A page (bench/browser, built for production by Vite with React's profiling build so that \`<Profiler>\` reports) renders a thread in Debian's Chromium (headless, ${VIEWPORT.width}x${VIEWPORT.height}, through playwright-core): \`createAgentStore\` over a source that replays a MESSAGES_SNAPSHOT of ${HISTORY.toLocaleString('en-US')} messages (user and assistant in turn, 300 characters each), waits until they are on screen and settled, then streams the 1,000th message: TEXT_MESSAGE_START and ${TOKENS.toLocaleString('en-US')} TEXT_MESSAGE_CONTENT deltas (a word each) at ${RATE.toLocaleString('en-US')} per second (\`play\` from @aguikit/scenarios), then TEXT_MESSAGE_END 250 ms after the last delta. The store keeps its default scheduler (one flush per animation frame). The window measured runs from TEXT_MESSAGE_START to TEXT_MESSAGE_END; times are the page's wall clock (\`performance.now()\`), not CPU time.`,
    "**AgentChat**: `<AgentChat />` itself under an `AgentProvider`, the whole tree inside one React `<Profiler>`: each of its reports is one commit. A `requestAnimationFrame` loop started before anything else timestamps the start of every frame's callbacks; a commit belongs to the frame interval it happens in (a scroll event, which the browser dispatches just before a frame's callbacks, falls in the interval before), and the bar is checked on the most commits in one frame. Long tasks are the page's `longtask` PerformanceObserver entries (tasks over 50 ms) overlapping the window; the longest is 0 when there is none.",
    "**Other messages**: AgentChat takes no `renderMessage`, so a message's renders cannot be counted inside it. A second page composes AgentChat's own parts in AgentChat's markup (`RunStatus`, `MessageList`, `InterruptDialog`, `Composer`; packages/ui/src/AgentChat.tsx) and draws each message as `MessageList` does by default (`<Message id={id} />`), through `renderMessage`, inside a `<Profiler>` of its own wrapped in `memo` on the id (as `Message` is): that Profiler reports exactly the commits in which something in the message's own subtree rendered. A re-render is such a report with phase `update` or `nested-update` for any message but the streamed one; a mount (a row the virtualizer brings into view) is counted apart. A `<Profiler>` around `MessageList` tells the list's own commits from the messages'.",
    'Each round runs both pages in a fresh Chromium; the figures of a round come from one stream each, and their spread over the rounds is the noise margin (counts are often exact). `--quick` runs both pages in the first round and only AgentChat in the others.',
  ].join('\n\n'),
  deterministic: false,
  loadsTools: true,
  figures: {
    maxCommitsPerFrame: { label: 'AgentChat: most React commits in one animation frame', unit: 'commits' },
    commits: { label: 'AgentChat: React commits in the window', unit: 'commits' },
    frames: { label: 'AgentChat: animation frames in the window', unit: 'frames' },
    framesOverOne: { label: 'AgentChat: frames with more than one commit', unit: 'frames' },
    fps: { label: 'AgentChat: frame rate in the window', unit: 'frames/s' },
    longestTask: { label: 'AgentChat: longest long task in the window (0: none over 50 ms)', unit: 'ms' },
    longTasks: { label: 'AgentChat: long tasks (over 50 ms) in the window', unit: 'tasks' },
    longestFrame: { label: 'AgentChat: longest interval between two frames in the window', unit: 'ms' },
    longestRender: { label: "AgentChat: longest React render of one commit (Profiler's actualDuration)", unit: 'ms' },
    streamMs: {
      label: `AgentChat: time the ${TOKENS.toLocaleString('en-US')} deltas took to arrive (${((TOKENS / RATE) * 1000).toLocaleString('en-US')} ms at the nominal rate)`,
      unit: 'ms',
    },
    snapshotTask: { label: `AgentChat: longest long task while the ${HISTORY}-message snapshot loads (outside the window)`, unit: 'ms' },
    otherRenders: { label: 'parts: re-renders of the other messages in the window', unit: 'renders' },
    otherMounts: { label: 'parts: other messages mounted in the window (rows scrolled into view)', unit: 'mounts' },
    streamedRenders: { label: 'parts: commits in which the streamed message rendered', unit: 'commits' },
    streamedMaxPerFrame: { label: 'parts: most commits in one frame in which the streamed message rendered', unit: 'commits' },
    listOnlyCommits: { label: 'parts: commits in which MessageList rendered and no message did', unit: 'commits' },
    deltasPerRender: { label: 'parts: deltas per render of the streamed message', unit: 'deltas' },
  },
  ratios: {
    commitsPerFrame: { label: 'AgentChat: React commits per animation frame in the window (commits / frames)' },
  },
  bars: [
    {
      id: 'one-commit-per-frame',
      text: 'At most one React commit per animation frame while the tokens stream',
      on: { figure: 'maxCommitsPerFrame' },
      op: '<=',
      limit: 1,
      unit: 'commits',
    },
    {
      id: 'no-long-task',
      text: 'No long task over 50 ms while the tokens stream',
      on: { figure: 'longestTask' },
      op: '<=',
      limit: LONG_TASK_MS,
      unit: 'ms',
    },
    {
      id: 'others-never-render',
      text: 'Other messages never re-render while the tokens stream',
      on: { figure: 'otherRenders' },
      op: '<=',
      limit: 0,
      unit: 'renders',
    },
  ],

  async run(ctx: CaseContext): Promise<CaseRound> {
    const server = await servePages(ctx);
    let browser: Browser | undefined;
    try {
      const url = server.url;
      browser = await launchChromium();
      const params = { history: HISTORY, tokens: TOKENS, rate: RATE };
      const chatRecord = await runPage(browser, url, { variant: 'chat', ...params });
      check(chatRecord, 'chat');
      const { chat } = analyze(chatRecord);
      // Quick mode measures the other messages in its first round only: a count, its spread comes from full runs.
      let parts: Analysis['parts'] | undefined;
      if (!ctx.quick || ctx.round === 1) {
        const partsRecord = await runPage(browser, url, { variant: 'parts', ...params });
        check(partsRecord, 'parts');
        const analysis = analyze(partsRecord);
        parts = analysis.parts;
        if (analysis.rerendered.length) ctx.log(`  other messages that re-rendered: ${analysis.rerendered.join(', ')}`);
      }
      ctx.log(
        `  AgentChat: ${chat.commits} commits in ${chat.frames} frames, at most ${chat.maxCommitsPerFrame} in one; longest long task ${fmt(chat.longestTask)} ms (${chat.longTasks})` +
          (parts
            ? `; parts: ${parts.otherRenders} re-renders of other messages, streamed message at most ${parts.streamedMaxPerFrame} commit(s) per frame`
            : ''),
      );
      return {
        figures: { ...chat, ...(parts ?? {}) },
        ratios: { commitsPerFrame: chat.commits / chat.frames },
      };
    } finally {
      await browser?.close();
      await server.close();
    }
  },

  obstacles(summary: CaseSummary) {
    const median = (key: string) => summary.figures[key]?.median ?? Number.NaN;
    const out: string[] = [];
    const missed = (id: string) => summary.bars.some((b) => b.bar.id === id && b.verdict !== 'pass');
    if (missed('one-commit-per-frame')) {
      out.push(
        `The streamed message itself renders in at most ${fmt(median('streamedMaxPerFrame'))} commit per frame (${fmt(median('deltasPerRender'))} deltas per render): the store's one flush per frame does its part. The other commits are \`MessageList\`'s own: ${fmt(median('listOnlyCommits'))} commits in the window rendered the list and no message, and ${fmt(median('framesOverOne'))} of ${fmt(median('frames'))} frames hold two commits or more. The list virtualizes above 200 rows (\`VirtualRows\`, @tanstack/virtual-core through \`useListVirtualizer\`): it writes row offsets and the total height to the DOM, changes its rows only when the rows to show are not all rendered, and folds such a change into the store's next notification (or a frame in which the store did not notify); a commit of its own in a frame the store committed in means one of those paths did not hold, or something else in the list (its scroll state, the live announcer) updated.`,
      );
    }
    if (missed('no-long-task')) {
      out.push(
        `Long tasks over 50 ms: ${fmt(median('longTasks'))} in the median round, the longest ${fmt(median('longestTask'))} ms, while the longest React render of one commit was ${fmt(median('longestRender'))} ms: most of such a task is outside React's render — the browser's style, layout and paint of the growing message, garbage collection, or the page waiting for a core on a shared machine; this case does not tell which.`,
      );
    }
    if (missed('others-never-render')) {
      out.push(`Other messages re-rendered ${fmt(median('otherRenders'))} times in the window; each round's log names them.`);
    }
    return out.join(' ') || undefined;
  },
};
