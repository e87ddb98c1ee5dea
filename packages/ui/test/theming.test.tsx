import { AgentProvider, type AgentStore } from '@aguikit/react';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AgentChat,
  Composer,
  EventTimeline,
  EventTimelinePanel,
  Interrupt,
  InterruptDialog,
  JsonTree,
  Message,
  MessageList,
  Reasoning,
  RunStatus,
  SafeMarkdown,
  StateInspector,
  StateInspectorPanel,
  SubagentGroup,
  SubagentStatusBadge,
  ToolCall,
  ToolCallCard,
  ToolStatusBadge,
} from '../src/index.js';
import { think } from '../src/storybook/conversations.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';

/**
 * A component rendered without any wrapper carries the theme itself: its
 * outermost element has the class `agk-root`, whose rule (styles.css) sets
 * the theme's font and text color. The computed styles are checked in
 * Chromium (theming.browser.test.tsx); here, that every component's root has
 * the class.
 */
let store: AgentStore;
beforeAll(async () => {
  store = await playedStore([
    {
      say: 'Refund order A-1001',
      events: runOf(
        [
          ...think('r1', 'The customer wants a refund.'),
          ...say('a1', 'Looking it up.'),
          ...call('call-1', 'lookup_order', { orderId: 'A-1001' }, { parent: 'a1', result: { status: 'delivered' } }),
          { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-1', name: 'Policy reader' },
          { type: 'STATE_SNAPSHOT', snapshot: { refund: { status: 'pending' } } },
        ],
        { outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Refund it?' }] } },
      ),
    },
  ]);
});

function rootOf(element: ReactNode): Element | null {
  const { container } = render(<AgentProvider store={store}>{element}</AgentProvider>);
  return container.firstElementChild;
}

const open = () => store.getState().thread.interrupts[0] ?? { id: 'none', reason: 'confirmation' };

describe('every component carries the theme without a wrapper', () => {
  const cases: [string, () => ReactNode][] = [
    ['AgentChat', () => <AgentChat />],
    ['MessageList', () => <MessageList />],
    ['Message', () => <Message id="a1" />],
    ['Message.Root', () => <Message.Root id="a1">x</Message.Root>],
    ['ToolCallCard', () => <ToolCallCard id="call-1" />],
    ['ToolCall.Root', () => <ToolCall.Root id="call-1">x</ToolCall.Root>],
    ['ToolStatusBadge', () => <ToolStatusBadge status="succeeded" />],
    ['InterruptDialog', () => <InterruptDialog initialFocus="none" />],
    ['Interrupt.Group', () => <Interrupt.Group initialFocus="none" />],
    ['StateInspector.Root', () => <StateInspector.Root>x</StateInspector.Root>],
    ['StateInspectorPanel', () => <StateInspectorPanel />],
    ['EventTimeline.Root', () => <EventTimeline.Root>x</EventTimeline.Root>],
    ['EventTimelinePanel', () => <EventTimelinePanel />],
    ['RunStatus', () => <RunStatus />],
    ['Composer', () => <Composer />],
    ['Reasoning', () => <Reasoning id="r1" />],
    ['SubagentGroup', () => <SubagentGroup id="sa-1" />],
    ['SubagentStatusBadge', () => <SubagentStatusBadge status="running" />],
    ['JsonTree', () => <JsonTree label="Doc" value={{ a: 1 }} />],
    ['SafeMarkdown', () => <SafeMarkdown>{'**hi**'}</SafeMarkdown>],
  ];

  it.each(cases)('%s', (_, element) => {
    const root = rootOf(element());
    expect(root).not.toBeNull();
    expect(root).toHaveClass('agk-root');
    expect(document.querySelector('.agk-theme')).toBeNull();
  });

  it('Interrupt.Root', () => {
    const { container } = render(
      <AgentProvider store={store}>
        <Interrupt.Group initialFocus="none">
          <Interrupt.Root interrupt={open()} />
        </Interrupt.Group>
      </AgentProvider>,
    );
    expect(container.querySelector('article.agk-interrupt')).toHaveClass('agk-root');
  });
});
