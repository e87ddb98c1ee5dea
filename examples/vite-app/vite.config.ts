import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

// The agent stays behind the app's own origin: /api/agent is proxied to one
// scenario of the aguikit agent server (`pnpm dev` in the aguikit repository
// starts it on port 8787), as a real app would proxy its agent.
const agentUrl = new URL(process.env.AGENT_URL ?? 'http://127.0.0.1:8787/agents/refund');
const proxy: Record<string, ProxyOptions> = {
  '/api/agent': { target: agentUrl.origin, changeOrigin: true, rewrite: () => agentUrl.pathname },
};

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  preview: { proxy },
});
