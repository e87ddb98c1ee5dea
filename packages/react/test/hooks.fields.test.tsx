/**
 * What AG-UI carries beyond text reaches a component through a hook: the
 * agent's capabilities, the run's usage and result, a subagent's links and
 * result, and the subagent an interrupt belongs to.
 */
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentProvider, createAgentStore, useCapabilities, useInterrupts, useRun, useSubagents } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

describe('hooks for every field', () => {
  it('useCapabilities, useRun (usage, result), useSubagents (links, result) and useInterrupts (subagent)', async () => {
    const m = manualSource();
    const caps = { humanInTheLoop: { supported: true } };
    const source = { ...m.source, capabilities: async () => caps };
    const frames = manualFrames();
    const store = createAgentStore({ source, threadId: 't', scheduler: frames.scheduler });
    const seen: { caps: unknown; usage: unknown; result: unknown; sub: unknown; interrupt: unknown }[] = [];
    function Probe() {
      const run = useRun();
      const subs = useSubagents();
      const interrupts = useInterrupts();
      seen.push({ caps: useCapabilities(), usage: run.usage, result: run.result, sub: subs.s1, interrupt: interrupts[0] });
      return null;
    }
    render(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
    });
    const runId = m.requests[0]?.runId ?? '';
    await act(async () => {
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId },
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'research', parentMessageId: 'a1' },
        { type: 'TOOL_CALL_END', toolCallId: 'c1' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher', parentToolCallId: 'c1', parentMessageId: 'a1' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 's1', result: { found: 3 } },
        {
          type: 'RUN_FINISHED',
          threadId: 't',
          runId,
          result: { answer: 42 },
          usage: [{ model: 'm', inputTokens: 10, outputTokens: 5 }],
          outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', subagentRunId: 's1' }] },
        },
      );
      m.end();
      await tick();
      await tick();
    });
    const last = seen.at(-1);
    expect(last?.caps).toEqual(caps);
    expect(last?.result).toEqual({ answer: 42 });
    expect(last?.usage).toBeDefined();
    expect(last?.sub).toMatchObject({ name: 'researcher', parentToolCallId: 'c1', parentMessageId: 'a1', result: { found: 3 } });
    expect(last?.interrupt).toMatchObject({ id: 'i1', subagentRunId: 's1' });
  });
});
