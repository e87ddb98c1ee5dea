/**
 * An agent whose subagents nest thousands deep (a loop that delegates to
 * itself) is shown, not a reason for the conversation to fail: groups nest
 * to a depth a reader can follow, and deeper ones sit at that depth, each
 * still naming the subagent it came from.
 */
import { AgentProvider } from '@aguikit/react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageList } from '../src/Messages.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import { MAX_GROUP_DEPTH } from '../src/useMessageOutline.js';

const DEPTH = 3_000;

describe('subagents nested 3,000 deep', () => {
  it('render, every message in the list, without running out of stack', async () => {
    const events = runOf(
      Array.from({ length: DEPTH }, (_, i) => [
        {
          type: 'SUBAGENT_STARTED',
          subagentRunId: `sub-${i}`,
          name: `委派 ${i}`,
          ...(i > 0 ? { parentSubagentRunId: `sub-${i - 1}` } : {}),
        },
        { type: 'TEXT_MESSAGE_START', messageId: `m-${i}`, role: 'assistant', subagentRunId: `sub-${i}` },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${i}`, delta: `第 ${i} 层` },
        { type: 'TEXT_MESSAGE_END', messageId: `m-${i}` },
      ]).flat(),
    );
    const store = await playedStore([{ say: 'Delegate.', events }]);
    expect(Object.keys(store.getState().thread.subagents)).toHaveLength(DEPTH);
    const { container } = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    expect(container.querySelectorAll('article')).toHaveLength(DEPTH + 1);
    // Every subagent has its group, named; none sits deeper than groups go, and the deepest ones follow one another in order.
    const groups = [...container.querySelectorAll<HTMLElement>('[role="group"][data-subagent]')];
    expect(groups.map((g) => g.dataset.subagent)).toEqual(Array.from({ length: DEPTH }, (_, i) => `sub-${i}`));
    const depth = (el: HTMLElement) => {
      let n = 0;
      for (let at: HTMLElement | null = el; at; at = at.parentElement?.closest<HTMLElement>('[role="group"][data-subagent]') ?? null) n++;
      return n;
    };
    expect(Math.max(...groups.map(depth))).toBe(MAX_GROUP_DEPTH);
    expect(depth(groups[2] as HTMLElement)).toBe(3);
    expect(depth(groups[DEPTH - 1] as HTMLElement)).toBe(MAX_GROUP_DEPTH);
    expect(groups[DEPTH - 1]).toHaveTextContent(`委派 ${DEPTH - 1}`);
    expect(groups[DEPTH - 1]).toHaveTextContent(`第 ${DEPTH - 1} 层`);
  }, 60_000);

  it('cuts a parent chain that loops where it loops, and a subagent that names itself its parent sits in the conversation', async () => {
    const events = runOf([
      { type: 'SUBAGENT_STARTED', subagentRunId: 'a', name: 'Alpha', parentSubagentRunId: 'b' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'b', name: 'Beta', parentSubagentRunId: 'a' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'c', name: 'Gamma', parentSubagentRunId: 'c' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a-1', role: 'assistant', subagentRunId: 'a' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a-1', delta: 'from alpha' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a-1' },
    ]);
    const store = await playedStore([{ say: 'Loop.', events }]);
    const { container } = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    const group = (id: string) => container.querySelector<HTMLElement>(`[role="group"][data-subagent="${id}"]`) as HTMLElement;
    // Alpha's message placed it first: Beta, its parent, in the conversation (the loop cut there), Alpha inside it.
    expect(group('b').parentElement?.closest('[role="group"]')).toBeNull();
    expect(group('a').parentElement?.closest('[role="group"]')).toBe(group('b'));
    expect(group('a')).toHaveTextContent('from alpha');
    expect(group('c').parentElement?.closest('[role="group"]')).toBeNull();
  });
});
