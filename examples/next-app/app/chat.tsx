'use client';

import { AgentProvider, useAgentRun } from '@aguikit/react';
import { AgentChat, StateInspectorPanel } from '@aguikit/ui';

export function Chat() {
  // The app's own route (app/api/agent/route.ts): the browser never sees where the agent runs.
  const agent = useAgentRun({ url: '/api/agent' });
  return (
    <AgentProvider store={agent.store}>
      <div className="app__panes">
        <AgentChat placeholder="Ask about an order" />
        <StateInspectorPanel />
      </div>
    </AgentProvider>
  );
}
