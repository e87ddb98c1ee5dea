// @vitest-environment node
/** A server render (no `window`) of every hook of the package below a provider that makes its store: none throws. */
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import {
  AgentProvider,
  useAgentRun,
  useAgentSelector,
  useAgentState,
  useCapabilities,
  useDiagnostics,
  useEventLog,
  useInterrupts,
  useLastReplyId,
  useMessage,
  useMessageAttribution,
  useMessageIds,
  useRun,
  useRunStatus,
  useRunSummary,
  useSharedState,
  useSubagents,
  useToolCall,
} from '../src/index.js';
import { manualSource } from './support/sources.js';

function Everything() {
  const agent = useAgentRun({ tools: {} });
  useAgentSelector((s) => ({ a: s.thread.run.status }));
  useAgentState((d) => d);
  useCapabilities();
  useDiagnostics();
  const log = useEventLog();
  useInterrupts();
  useLastReplyId(undefined);
  useMessage('u0');
  useMessageAttribution();
  const ids = useMessageIds();
  useRun();
  useRunStatus();
  useRunSummary(undefined);
  useSharedState();
  useSubagents();
  useToolCall('x');
  return <p>{`${agent.status} ${ids.length} ${log.count}`}</p>;
}

it('every hook renders on a server below a provider that makes its store', () => {
  expect(typeof window).toBe('undefined');
  const html = renderToString(
    <AgentProvider options={{ source: manualSource().source, initialMessages: [{ id: 'u0', role: 'user', content: 'hi' }] }}>
      <Everything />
    </AgentProvider>,
  );
  expect(html).toContain('idle 1');
});
