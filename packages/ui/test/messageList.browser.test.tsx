// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import type { AgentSource, Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { memo, Profiler, type ProfilerOnRenderCallback } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { Message } from '../src/Message.js';
import { MessageList } from '../src/Messages.js';
import '../src/styles.css';

/**
 * MessageList in real Chromium, with real layout, ResizeObservers and scroll
 * events: a virtualized thread whose last message streams, the store on its
 * default scheduler (one flush per animation frame).
 */

const HISTORY = 400;
const STREAMED = 'streamed';

const history: AgUiMessage[] = Array.from({ length: HISTORY }, (_, i) =>
  i % 2
    ? { id: `h${i}`, role: 'assistant', content: `Reply ${i}: the order ships this week.` }
    : { id: `h${i}`, role: 'user', content: `Question ${i}` },
);

const word = (i: number) => `word${i} `;
const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** An agent whose text deltas the test releases, a few words at a time, each batch in a task of its own. */
function streamingAgent() {
  let sent = 0;
  let release: (() => void) | undefined;
  let finished = false;
  const source: AgentSource = {
    async *run(input) {
      yield { type: 'RUN_STARTED', threadId: 't', runId: input.runId };
      yield { type: 'TEXT_MESSAGE_START', messageId: STREAMED, role: 'assistant' };
      while (!finished) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        for (let i = 0; i < 4; i++) yield { type: 'TEXT_MESSAGE_CONTENT', messageId: STREAMED, delta: word(sent++) };
      }
      yield { type: 'TEXT_MESSAGE_END', messageId: STREAMED };
      yield { type: 'RUN_FINISHED', threadId: 't', runId: input.runId };
    },
  };
  /**
   * Streams `batches` batches of words, one every few milliseconds (several per frame). Each batch waits for the
   * agent to be ready for it: a busy machine may still be starting the run, and a batch released to nobody is lost.
   */
  const stream = async (batches: number) => {
    for (let b = 0; b < batches; b++) {
      await new Promise((resolve) => setTimeout(resolve, 3));
      while (!release) await new Promise((resolve) => setTimeout(resolve, 1));
      const go = release;
      release = undefined;
      go();
    }
  };
  const finish = async () => {
    finished = true;
    release?.();
    await nextFrame();
  };
  return { source, stream, finish, words: () => sent };
}

/** React commits (the root Profiler's reports) and the start of every animation frame, as the page's clock saw them. */
function recorder() {
  const frames: number[] = [];
  const commits: number[] = [];
  const renders: { id: string; at: number }[] = [];
  let running = true;
  // When the callbacks run, not the frame's timestamp: a busy main thread runs a frame's callbacks late.
  const tick = () => {
    frames.push(performance.now());
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const onCommit: ProfilerOnRenderCallback = () => {
    commits.push(performance.now());
  };
  const onMessage: ProfilerOnRenderCallback = (id, phase) => {
    if (phase !== 'mount') renders.push({ id, at: performance.now() });
  };
  /** The most commits between the start of one frame's callbacks and the next's, from `from` on. */
  const mostPerFrame = (from: number) => {
    const counts = new Map<number, number>();
    for (const at of commits) {
      if (at < from) continue;
      let frame = -1;
      for (let k = 0; k < frames.length && (frames[k] ?? 0) <= at; k++) frame = k;
      counts.set(frame, (counts.get(frame) ?? 0) + 1);
    }
    return Math.max(0, ...counts.values());
  };
  return {
    onCommit,
    onMessage,
    mostPerFrame,
    commitsSince: (from: number) => commits.filter((at) => at >= from).length,
    /** The messages but the streamed one that re-rendered (not counting mounts) from `from` on. */
    rerendered: (from: number) => [...new Set(renders.filter((r) => r.at >= from && r.id !== STREAMED).map((r) => r.id))],
    stop: () => {
      running = false;
    },
  };
}

let rec: ReturnType<typeof recorder> | undefined;
afterEach(() => rec?.stop());

async function mount(store: AgentStore, record: ReturnType<typeof recorder>) {
  // The Markdown renderer loads on demand, and its arrival re-renders the agent's messages once: it is there first.
  await preloadMarkdown();
  // Each message inside a Profiler of its own, memoized on its id as Message is: it reports exactly its own renders.
  const Profiled = memo(function Profiled({ id }: { id: string }) {
    return (
      <Profiler id={id} onRender={record.onMessage}>
        <Message id={id} />
      </Profiler>
    );
  });
  const renderMessage = (id: string) => <Profiled key={id} id={id} />;
  const screen = await render(
    <Profiler id="root" onRender={record.onCommit}>
      <AgentProvider store={store}>
        <div style={{ height: 400, display: 'flex', flexDirection: 'column' }}>
          <MessageList renderMessage={renderMessage} />
        </div>
      </AgentProvider>
    </Profiler>,
  );
  const root = screen.container.querySelector<HTMLElement>('.agk-messages');
  const log = screen.container.querySelector<HTMLElement>('[role="log"]');
  if (!root || !log) throw new Error('no message list');
  return { root, log };
}

const atEnd = (log: HTMLElement) => log.scrollHeight - log.scrollTop - log.clientHeight <= 24;
const lastText = (log: HTMLElement) => [...log.querySelectorAll('article')].at(-1)?.textContent ?? '';

async function settle(frames = 10) {
  for (let i = 0; i < frames; i++) await nextFrame();
}

/** The history in a list, recorded, and an agent ready to stream a reply into it. */
async function streamingList() {
  const record = recorder();
  rec = record;
  const agent = streamingAgent();
  const store = createAgentStore({ source: agent.source, threadId: 't', initialMessages: history });
  return { agent, store, rec: record, ...(await mount(store, record)) };
}

describe('MessageList in Chromium: a message streaming at the end of a virtualized thread', () => {
  it('commits at most once per animation frame, follows the text, and re-renders no other message', async () => {
    const { agent, store, root, log, rec } = await streamingList();
    await settle();
    expect(root).toHaveAttribute('data-virtualization', 'on');
    expect(root.querySelectorAll('article').length).toBeLessThan(60);

    void store.getState().run();
    await settle();
    const from = performance.now();
    await agent.stream(150);
    await settle();

    expect(rec.commitsSince(from)).toBeGreaterThan(5);
    expect(rec.mostPerFrame(from)).toBe(1);
    expect(rec.rerendered(from)).toEqual([]);
    // The text is many times the viewport's height, and its end is in view.
    expect(log.scrollHeight).toBeGreaterThan(3 * log.clientHeight);
    expect(root).toHaveAttribute('data-scroll', 'following');
    expect(atEnd(log)).toBe(true);
    expect(lastText(log)).toContain(word(agent.words() - 1).trim());
    await agent.finish();
  });

  it('stops following when the reader scrolls up mid-stream, brings in the rows scrolled to, and follows again on "Jump to latest"', async () => {
    const { agent, store, root, log, rec } = await streamingList();
    await settle();
    void store.getState().run();
    await agent.stream(40);

    // A wheel up, then the scroll it makes, while the words keep coming.
    const from = performance.now();
    log.dispatchEvent(new WheelEvent('wheel', { deltaY: -400 }));
    const top = Math.round(log.scrollHeight / 2);
    log.scrollTop = top;
    await agent.stream(60);
    await settle();

    expect(root).toHaveAttribute('data-scroll', 'paused');
    expect(atEnd(log)).toBe(false);
    // The rows at the reader's place are rendered (history, not the streamed reply) and stay put while the reply grows.
    const held = log.scrollTop;
    const shown = () => {
      const view = log.getBoundingClientRect();
      return [...log.querySelectorAll('article')]
        .filter((a) => {
          const box = a.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        })
        .map((a) => a.textContent ?? '');
    };
    const before = shown();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((text) => /^(You|Assistant)(Question|Reply) \d+/.test(text))).toBe(true);
    const steady = performance.now();
    await agent.stream(30);
    await settle();
    expect(log.scrollTop).toBe(held);
    expect(shown()).toEqual(before);
    expect(root).toHaveAttribute('data-scroll', 'paused');
    // Once the scroll is over, at most one commit per frame while the reply grows (none while it is out of
    // view). The scroll's own commit (the rows it brings in) and the stream's are drawn by the same frame;
    // which frame interval the count puts the scroll's in depends only on where the stream's flush falls, so
    // the scroll is left out of the count.
    expect(rec.mostPerFrame(steady)).toBeLessThanOrEqual(1);

    const jump = root.querySelector<HTMLButtonElement>('.agk-messages__jump');
    expect(jump).not.toBeNull();
    jump?.click();
    await agent.stream(20);
    await settle();
    expect(root).toHaveAttribute('data-scroll', 'following');
    expect(atEnd(log)).toBe(true);
    expect(lastText(log)).toContain(word(agent.words() - 1).trim());
    expect(rec.rerendered(from)).toEqual([]);
    await agent.finish();
  });
  it('keeps a scroll the list saw no input for (the scrollbar dragged, a script) while the reply grows before the scroll event', async () => {
    const { agent, store, root, log } = await streamingList();
    await settle();
    void store.getState().run();
    await agent.stream(20);
    await settle();
    expect(atEnd(log)).toBe(true);

    // No wheel, key or touch: only scrollTop moves, and the next words commit before the scroll event is dispatched.
    log.scrollTop = 0;
    await agent.stream(30);
    await settle();

    expect(root).toHaveAttribute('data-scroll', 'paused');
    expect(log.scrollTop).toBeLessThan(log.clientHeight);
    expect(log.textContent).toContain('Question 0');
    await agent.finish();
  });
});
