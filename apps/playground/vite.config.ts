import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { agentProxy } from './agentProxy.js';

// `pnpm dev` sets both from its --port/--agent-port flags (or PORT/AGENT_PORT); 5173 and 8787 otherwise.
const agentServer = process.env.AGENT_SERVER_URL ?? `http://127.0.0.1:${process.env.AGENT_PORT || 8787}`;
const port = Number(process.env.PORT) || 5173;
// The playground reaches the agent server through its own origin.
const proxy = agentProxy(agentServer);

export default defineConfig({
  plugins: [react()],
  // Workspace packages resolve to their sources: no build step before the playground runs.
  resolve: { conditions: ['@aguikit/source', ...defaultClientConditions] },
  server: { port, host: '127.0.0.1', proxy },
  preview: { port: 4173, host: '127.0.0.1', proxy },
});
