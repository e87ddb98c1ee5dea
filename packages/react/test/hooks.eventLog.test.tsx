/**
 * useEventLog's count and the log's own array, render by render: the count
 * never runs past the array it comes with, a reset's new array comes with
 * its own count, and an effect that depends on both sees each change.
 */
import { act, render } from '@testing-library/react';
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { AgentProvider, createAgentStore, useEventLog } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

describe('useEventLog across a reset, in StrictMode', () => {
  it('gives in every render a count its array holds, and the effects that depend on [events, count] follow the new log', async () => {
    const m = manualSource({ push: true });
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    const torn: string[] = [];
    const effects: { events: readonly unknown[]; count: number }[] = [];
    let rerender: () => void = () => {};
    function Timeline() {
      const { events, count } = useEventLog();
      const [, bump] = React.useReducer((n: number) => n + 1, 0);
      rerender = bump;
      if (count > events.length) torn.push(`count ${count} over ${events.length} events`);
      for (let i = 0; i < count; i++) if (events[i]?.index !== i) torn.push(`event ${i} of ${count} is #${events[i]?.index}`);
      React.useEffect(() => {
        effects.push({ events, count });
      }, [events, count]);
      return null;
    }
    render(
      <React.StrictMode>
        <AgentProvider store={store}>
          <Timeline />
        </AgentProvider>
      </React.StrictMode>,
    );
    const start = async () => {
      await act(async () => {
        void store.getState().run('go');
        await tick();
        m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
        await tick();
        frames.frame();
      });
    };
    await start();
    const first = store.log.entries;
    // Events arrived, not yet flushed: a render then shows the two flushed ones.
    await act(async () => {
      m.push(...Array.from({ length: 3 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' })));
      await tick();
      rerender();
    });
    expect(effects.at(-1)?.events).toBe(first);
    expect(effects.at(-1)?.count).toBe(2);
    await act(async () => {
      await store.getState().reset();
      rerender();
    });
    const second = store.log.entries;
    expect(second).not.toBe(first);
    expect(effects.at(-1)?.events).toBe(second);
    expect(effects.at(-1)?.count).toBe(0);
    await start();
    expect(effects.at(-1)?.events).toBe(second);
    expect(effects.at(-1)?.count).toBe(2);
    expect(store.log.entries).toBe(second);
    expect(torn).toEqual([]);
  });
});
