import { act, render } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { expect, it, vi } from 'vitest';
import { AgentProvider, type AgentStoreState, createAgentStore, useAgentSelector } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

/** Selectors that build a value `Object.is` never finds equal to the last, of kinds compared by identity. */
const shapes: [string, (s: AgentStoreState) => unknown][] = [
  ['a new Map each time', (s) => new Map(s.thread.messages.ids.map((id) => [id, 1]))],
  ['new members each time', (s) => s.thread.messages.ids.map((id) => ({ id }))],
  ['a new Date each time', () => new Date(0)],
  ['a new function each time', () => () => 1],
  ['a nested new object', (s) => ({ x: { status: s.thread.run.status } })],
];

it.each(shapes)(
  'a selector that returns %s neither loops nor warns, while streaming and when the parent re-renders',
  async (_name, selector) => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    let renders = 0;
    let bump: () => void = () => undefined;
    function View() {
      renders++;
      useAgentSelector(selector);
      return null;
    }
    function Parent() {
      const [n, setN] = useState(0);
      bump = () => setN(n + 1);
      return <View />;
    }
    render(
      <StrictMode>
        <AgentProvider store={store}>
          <Parent />
        </AgentProvider>
      </StrictMode>,
    );
    await act(async () => {
      void store.getState().run('hi');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
      await tick();
      frames.frame();
    });
    for (let i = 0; i < 5; i++) {
      await act(async () => {
        m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' });
        await tick();
        frames.frame();
      });
      act(() => bump());
    }
    expect(errors).not.toHaveBeenCalled();
    // StrictMode renders twice: the first mount, then each of 5 token frames and 5 parent renders, and nothing more.
    expect(renders).toBeLessThanOrEqual(2 * (1 + 5 + 5) + 4);
  },
);
