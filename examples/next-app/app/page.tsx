import { Chat } from './chat';

// A server component: it renders the client component that holds the agent.
export default function Page() {
  return (
    <main className="app">
      <h1 className="app__title">Orders assistant</h1>
      <Chat />
    </main>
  );
}
