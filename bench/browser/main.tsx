/**
 * The page of case 5: a 1,000-message thread rendered by AgentChat, its last
 * message streamed token by token at a steady rate, and everything React and
 * the browser do meanwhile recorded (see record.ts). Built for production by
 * the case, with `react-dom/client` resolved to React's profiling build
 * (the production build with `<Profiler>` timings left on).
 *
 * URL parameters: `variant` (chat | parts), `history`, `tokens`, `rate`.
 */
// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import type { AgentSource, Message as ProtocolMessage } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { play, type TimedEvent } from '@aguikit/scenarios';
import { AgentChat, Composer, InterruptDialog, Message, MessageList, preloadMarkdown, RunStatus } from '@aguikit/ui';
import '@aguikit/ui/styles.css';
import { memo, Profiler, type ProfilerOnRenderCallback } from 'react';
import { createRoot } from 'react-dom/client';
import { history, THREAD_ID, token } from '../src/fixtures.js';
import type { PageParams, PageRecord, Variant } from './record.js';

const STREAMED_ID = 'streamed';
/** Frames to wait after the snapshot is on screen, so its rows are measured and scrolled before the stream starts. */
const SETTLE_FRAMES = 30;
/** Pause between the last delta and TEXT_MESSAGE_END: the window in which the last tokens' frames are recorded. */
const TAIL_MS = 250;

function readParams(): PageParams {
  const search = new URLSearchParams(location.search);
  const num = (name: string, fallback: number) => {
    const value = Number(search.get(name) ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`bad ${name}: ${search.get(name)}`);
    return value;
  };
  const variant: Variant = search.get('variant') === 'parts' ? 'parts' : 'chat';
  return { variant, history: num('history', 999), tokens: num('tokens', 5000), rate: num('rate', 5000) };
}

const params = readParams();

// The frame loop starts before anything else asks for a frame, so its callback runs first in every frame
// (callbacks run in the order they were requested): each timestamp is the start of a frame's callbacks,
// before the store's flush.
const frames: number[] = [];
const commits: { at: number; renderMs: number }[] = [];
const messageRenders: { id: string; phase: string; at: number; commit: number }[] = [];
const listCommits: number[] = [];
const longTasks: { start: number; duration: number }[] = [];
let recording = true;
const tick = () => {
  frames.push(performance.now());
  if (recording) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const past: ProtocolMessage[] = history(params.history);
const expected = Array.from({ length: params.tokens }, (_, i) => token(i)).join('');
const marks = { snapshot: Number.NaN, start: Number.NaN, last: Number.NaN, done: Number.NaN, end: Number.NaN };

/** The deltas, paced by `play` (the scenarios' clock: it keeps the average rate even below a timer's resolution). */
const streamed: TimedEvent[] = [
  { delayMs: 0, event: { type: 'TEXT_MESSAGE_START', messageId: STREAMED_ID, role: 'assistant' } },
  ...Array.from({ length: params.tokens }, (_, i) => ({
    delayMs: 1000 / params.rate,
    event: { type: 'TEXT_MESSAGE_CONTENT', messageId: STREAMED_ID, delta: token(i) },
  })),
];

const source: AgentSource = {
  async *run(input, options = {}) {
    options.onConnection?.('open');
    yield { type: 'RUN_STARTED', threadId: THREAD_ID, runId: input.runId };
    marks.snapshot = performance.now();
    yield { type: 'MESSAGES_SNAPSHOT', messages: past };
    // The snapshot is flushed at the next frame; wait until it is on screen and has settled.
    while (store.getState().thread.messages.ids.length < params.history) await nextFrame();
    for (let i = 0; i < SETTLE_FRAMES; i++) await nextFrame();
    marks.start = performance.now();
    yield* play(streamed, options.signal ? { signal: options.signal } : {});
    marks.last = performance.now();
    await sleep(TAIL_MS);
    marks.end = performance.now();
    yield { type: 'TEXT_MESSAGE_END', messageId: STREAMED_ID };
    yield { type: 'RUN_FINISHED', threadId: THREAD_ID, runId: input.runId };
    options.onConnection?.('closed');
  },
};

const store = createAgentStore({ source, threadId: THREAD_ID });

/**
 * Every commit of the tree; the first one that shows the whole text marks the
 * end of the stream. A Profiler reports after the Profilers inside it, so the
 * root's report closes the commit the messages' reports belong to.
 */
const onCommit: ProfilerOnRenderCallback = (_id, _phase, actualDuration) => {
  const at = performance.now();
  commits.push({ at, renderMs: actualDuration });
  if (Number.isNaN(marks.done)) {
    const content = store.getState().thread.messages.byId.get(STREAMED_ID)?.content;
    if (typeof content === 'string' && content.length === expected.length) marks.done = at;
  }
};

const onMessageRender: ProfilerOnRenderCallback = (id, phase) => {
  messageRenders.push({ id, phase, at: performance.now(), commit: commits.length });
};

const onListRender: ProfilerOnRenderCallback = () => {
  listCommits.push(commits.length);
};

/**
 * A message as MessageList draws it (`<Message id={id} />`; AgentChat passes
 * no `renderTool`) inside a Profiler of its own. Memoized on the id like
 * Message itself, so a re-render of the row around it reaches the Profiler
 * only when it would reach Message too: the Profiler reports a commit exactly
 * when something in the message's own subtree rendered.
 */
const ProfiledMessage = memo(function ProfiledMessage({ id }: { id: string }) {
  return (
    <Profiler id={id} onRender={onMessageRender}>
      <Message id={id} />
    </Profiler>
  );
});
const renderProfiled = (id: string) => <ProfiledMessage key={id} id={id} />;

/**
 * AgentChat's own markup and parts (packages/ui/src/AgentChat.tsx, with its
 * defaults), plus `renderMessage`, and a Profiler around the list to tell
 * the list's own commits from the messages'. Profilers render nothing and
 * change no behaviour.
 */
function ChatFromParts() {
  return (
    <section className="agk-chat" aria-label="Agent chat">
      <div className="agk-chat__status">
        <RunStatus />
      </div>
      <Profiler id="list" onRender={onListRender}>
        <MessageList renderMessage={renderProfiled} />
      </Profiler>
      <InterruptDialog />
      <div className="agk-chat__composer">
        <Composer />
      </div>
    </section>
  );
}

function shownTail(): boolean {
  const articles = document.querySelectorAll('.agk-message');
  const last = articles[articles.length - 1];
  return last?.getAttribute('data-role') === 'assistant' && (last.textContent ?? '').includes(expected.trim().slice(-60));
}

async function main(): Promise<PageRecord> {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  // The Markdown renderer loads on first need; loaded first here, so the case measures rendering, not the load.
  await preloadMarkdown();
  createRoot(root).render(
    <Profiler id="root" onRender={onCommit}>
      <AgentProvider store={store}>{params.variant === 'chat' ? <AgentChat /> : <ChatFromParts />}</AgentProvider>
    </Profiler>,
  );
  const result = await store.getState().run();
  if (!result.ok) throw new Error(`the run was refused: ${result.message}`);
  for (let i = 0; i < 5; i++) await nextFrame();
  recording = false;
  const thread = store.getState().thread;
  const content = thread.messages.byId.get(STREAMED_ID)?.content;
  return {
    params,
    frames,
    commits,
    messageRenders,
    listCommits,
    longTasks,
    marks,
    streamedId: STREAMED_ID,
    check: {
      messages: thread.messages.ids.length,
      diagnostics: thread.diagnostics.length,
      runStatus: thread.run.status,
      storedChars: typeof content === 'string' ? content.length : -1,
      expectedChars: expected.length,
      shown: shownTail(),
    },
  };
}

main().then(
  (record) => {
    window.__aguikitRendering = { record };
  },
  (e: unknown) => {
    window.__aguikitRendering = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  },
);
