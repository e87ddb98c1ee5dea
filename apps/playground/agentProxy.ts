import type { ProxyOptions } from 'vite';

/**
 * The playground's `/agents` proxy to the agent server at `target`, for
 * `vite` and `vite preview` alike. An agent that dies while it streams (a
 * crash, a kill) closes its socket with the reply half sent; Vite's proxy
 * would keep the browser's response open, once its headers are sent, and
 * the page would say "Running" until its silence timeout. Here the
 * browser's response is cut as the agent's was, so the page sees the
 * connection lost at once and offers Reconnect.
 *
 * @example
 * defineConfig({ server: { proxy: agentProxy('http://127.0.0.1:8787') } });
 */
export function agentProxy(target: string): Record<string, ProxyOptions> {
  return {
    '/agents': {
      target,
      changeOrigin: true,
      configure(proxy) {
        proxy.on('proxyRes', (upstream, _req, res) => {
          upstream.once('close', () => {
            if (!upstream.complete) res.destroy();
          });
        });
      },
    },
  };
}
