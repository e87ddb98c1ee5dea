import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentChat,
  Composer,
  EventTimeline,
  EventTimelinePanel,
  InterruptDialog,
  Message,
  MessageList,
  Reasoning,
  RunStatus,
  StateInspector,
  StateInspectorPanel,
  SubagentGroup,
  ToolCall,
  ToolCallCard,
} from '../src/index.js';

const id = '5f0c2a9e-8d1b-4c7a-9e3f-2b6d8a1c4e70';

// What a developer rendered, as they wrote it: an error about a hook the component calls inside names something they never wrote.
const outside: [string, ReactElement][] = [
  ['<AgentChat>', <AgentChat key="a" />],
  ['<Composer>', <Composer key="a" />],
  ['<RunStatus>', <RunStatus key="a" />],
  ['<MessageList>', <MessageList key="a" />],
  ['<Message>', <Message key="a" id={id} />],
  ['<Message.Root>', <Message.Root key="a" id={id} />],
  ['<ToolCallCard>', <ToolCallCard key="a" id={id} />],
  ['<ToolCall.Root>', <ToolCall.Root key="a" id={id} />],
  ['<Reasoning>', <Reasoning key="a" id={id} />],
  ['<SubagentGroup>', <SubagentGroup key="a" id={id} />],
  ['<InterruptDialog>', <InterruptDialog key="a" />],
  ['<StateInspectorPanel>', <StateInspectorPanel key="a" />],
  ['<StateInspector.Root>', <StateInspector.Root key="a" />],
  ['<EventTimelinePanel>', <EventTimelinePanel key="a" />],
  ['<EventTimeline.Root>', <EventTimeline.Root key="a" />],
];

describe('a component rendered outside <AgentProvider>', () => {
  it.each(outside)('%s says so by its own name, and how to give it a store', (name, element) => {
    // React logs the error it rethrows: quiet here, the test reads the error itself.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(() => render(element)).toThrow(
        `${name} must be rendered below <AgentProvider>: wrap it in <AgentProvider store={agent.store}> (the store of useAgentRun or createAgentStore) or <AgentProvider options={{ source }}>.`,
      );
    } finally {
      quiet.mockRestore();
    }
  });
});
