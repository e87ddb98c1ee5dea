import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentProvider, createAgentStore, useLastReplyId, useMessageAttribution, useRunSummary, useSubagents } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

/** A store with a run open, and a way to push events into it one frame at a time. */
async function openRun() {
  const m = manualSource();
  const frames = manualFrames();
  const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
  const push = async (...events: unknown[]) => {
    await act(async () => {
      m.push(...events);
      await tick();
      frames.frame();
    });
  };
  return { m, store, push, frames };
}

/** `Probe` rendered over a store whose first run has started: the store, the run's id and a way to push its events. */
async function runUnder(Probe: () => null) {
  const { m, store, push } = await openRun();
  render(
    <AgentProvider store={store}>
      <Probe />
    </AgentProvider>,
  );
  await act(async () => {
    void store.getState().run('go');
    await tick();
  });
  return { store, push, runId: m.requests[0]?.runId ?? '' };
}

describe('useSubagents and useMessageAttribution', () => {
  it('attribute each message to its subagent and stay the same objects while a message streams', async () => {
    const seen = { subagents: [] as unknown[], attribution: [] as ReadonlyMap<string, string>[] };
    const { push, runId } = await runUnder(() => {
      seen.subagents.push(useSubagents());
      seen.attribution.push(useMessageAttribution());
      return null;
    });
    await push(
      { type: 'RUN_STARTED', threadId: 't', runId },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-1', name: 'Researcher' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-2', name: 'Citer', parentSubagentRunId: 'sa-1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'main', role: 'assistant' },
      { type: 'TEXT_MESSAGE_START', messageId: 'nested', role: 'assistant', subagentRunId: 'sa-2' },
    );
    const attribution = seen.attribution.at(-1);
    expect(attribution && [...attribution]).toEqual([['nested', 'sa-2']]);
    expect(Object.keys(seen.subagents.at(-1) ?? {})).toEqual(['sa-1', 'sa-2']);

    const renders = seen.attribution.length;
    for (let i = 0; i < 5; i++) {
      await push(
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'nested', delta: 'x', subagentRunId: 'sa-2' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'main', delta: 'y' },
      );
    }
    expect(seen.attribution.length).toBe(renders);

    await push({ type: 'SUBAGENT_ERROR', subagentRunId: 'sa-2', message: 'quota exceeded' });
    expect(seen.attribution.at(-1)).toBe(attribution);
    const subagents = seen.subagents.at(-1) as ReturnType<typeof useSubagents>;
    expect(subagents['sa-2']).toMatchObject({ status: 'error', error: { message: 'quota exceeded' }, parentSubagentRunId: 'sa-1' });
  });

  it('follows an activity replaced under another agent: the map says who sent it last, both ways', async () => {
    let seen: ReadonlyMap<string, string> | undefined;
    const { store, push, runId } = await runUnder(() => {
      seen = useMessageAttribution();
      return null;
    });
    const plan = (steps: string[], subagentRunId?: string) => ({
      type: 'ACTIVITY_SNAPSHOT',
      messageId: 'plan',
      activityType: 'PLAN',
      content: { steps },
      ...(subagentRunId ? { subagentRunId } : {}),
    });
    await push({ type: 'RUN_STARTED', threadId: 't', runId }, plan(['查询订单']));
    expect(seen && [...seen]).toEqual([]);
    await push({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa-1', name: 'Planner' }, plan(['查询订单', '退款'], 'sa-1'));
    expect(store.getState().thread.messages.byId.get('plan')?.subagentRunId).toBe('sa-1');
    expect(seen && [...seen]).toEqual([['plan', 'sa-1']]);
    await push(plan(['完成']));
    expect(seen && [...seen]).toEqual([]);
  });

  it('gives the same empty map to a thread without subagents', () => {
    const store = createAgentStore({ source: manualSource().source, initialMessages: [{ id: 'u', role: 'user', content: 'hi' }] });
    const maps: ReadonlyMap<string, string>[] = [];
    function Probe() {
      maps.push(useMessageAttribution());
      return null;
    }
    const view = render(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    view.rerender(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    expect(maps[0]?.size).toBe(0);
    expect(maps[1]).toBe(maps[0]);
  });
});

describe('useRunSummary', () => {
  it('reports one run by id, re-rendering when that run starts or settles and never for a token', async () => {
    const { m, store, push } = await openRun();
    let renders = 0;
    function Summary({ id }: { id: string | undefined }) {
      renders++;
      return <span data-testid={`summary-${id}`}>{useRunSummary(id)?.status ?? 'none'}</span>;
    }
    const tree = (runId: string) => (
      <AgentProvider store={store}>
        <Summary id={runId} />
        <Summary id="constructor" />
        <Summary id={undefined} />
      </AgentProvider>
    );
    const view = render(tree(''));
    await act(async () => {
      void store.getState().run('go');
      await tick();
    });
    const runId = m.requests[0]?.runId ?? '';
    view.rerender(tree(runId));
    await push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
    expect(screen.getByTestId(`summary-${runId}`).textContent).toBe('running');
    expect(screen.getByTestId('summary-constructor').textContent).toBe('none');
    expect(screen.getByTestId('summary-undefined').textContent).toBe('none');

    const before = renders;
    for (let i = 0; i < 3; i++) await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' });
    expect(renders).toBe(before);

    await push({ type: 'RUN_ERROR', message: 'Upstream down' });
    expect(screen.getByTestId(`summary-${runId}`).textContent).toBe('error');
  });
});

describe('useLastReplyId', () => {
  it("names a run's last assistant or reasoning message, and re-renders only when that changes", async () => {
    const { m, store, push } = await openRun();
    const seen: (string | undefined)[] = [];
    let runId = '';
    function Probe() {
      seen.push(useLastReplyId(runId || undefined));
      return null;
    }
    const view = render(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
    });
    runId = m.requests[0]?.runId ?? '';
    view.rerender(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    await push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' });
    expect(seen.at(-1)).toBe('a1');
    await push(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'tool-1', toolCallId: 'c1', content: 'ok' },
    );
    expect(seen.at(-1)).toBe('a1');
    const renders = seen.length;
    for (let i = 0; i < 3; i++) await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'x' });
    expect(seen.length).toBe(renders);
    await push({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' });
    expect(seen.at(-1)).toBe('r1');
    expect(store.getState().thread.messages.ids.slice(1)).toEqual(['a1', 'tool-1', 'r1']);
  });
});
