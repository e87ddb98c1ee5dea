import '@aguikit/ui/styles.css';
import './app.css';
import { AgentProvider, useAgentRun } from '@aguikit/react';
import { AgentChat, StateInspectorPanel, toolRenderers } from '@aguikit/ui';
import { OrderCard } from './OrderCard';

// Module scope: made once, so the message list never re-renders for it.
const renderTool = toolRenderers({ lookup_order: (call) => <OrderCard call={call} /> });

export function App() {
  const agent = useAgentRun({ url: '/api/agent' });
  return (
    <AgentProvider store={agent.store}>
      <main className="app">
        <AgentChat renderTool={renderTool} placeholder="Ask about an order" />
        <StateInspectorPanel />
      </main>
    </AgentProvider>
  );
}
