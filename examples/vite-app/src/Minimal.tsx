import { AgentProvider, useAgentRun, useMessage, useMessageIds } from '@aguikit/react';
import { memo } from 'react';

export function Minimal() {
  const agent = useAgentRun({ url: '/api/agent' }); // created once: inline options never recreate it
  return (
    <AgentProvider store={agent.store}>
      <Messages />
      <p role="status">
        {agent.status}
        {agent.refusal ? ` — ${agent.refusal.message}` : ''}
      </p>
      <button type="button" disabled={agent.inFlight !== undefined} onClick={() => agent.run('Refund order A-1001')}>
        Send
      </button>
      <button type="button" onClick={agent.stop}>
        Stop
      </button>
    </AgentProvider>
  );
}

function Messages() {
  const ids = useMessageIds(); // stable while a message streams: the list does not re-render per token
  return ids.map((id) => <Message key={id} id={id} />);
}

const Message = memo(function Message({ id }: { id: string }) {
  const message = useMessage(id); // re-renders for its own tokens only
  // A tool's JSON result has no spaces to wrap at: anywhere keeps it inside a phone's width.
  return (
    <p data-streaming={message?.streaming} style={{ overflowWrap: 'anywhere' }}>
      {String(message?.content ?? '')}
    </p>
  );
});
