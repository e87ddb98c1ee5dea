import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentServer } from '../apps/agent-server/src/server.js';
import { agentServer, conversationOnPhone, freePort, type Installed, installExample, refundFlow, run, serve } from './harness.js';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

describe('examples/next-app from the tarballs', () => {
  let app: Installed;
  let agent: Awaited<ReturnType<typeof agentServer>>;
  let server: AgentServer;

  beforeAll(async () => {
    app = await installExample('next-app');
    agent = await agentServer();
    server = agent.server;
  });

  afterAll(async () => {
    await agent?.close();
    await app?.remove();
  });

  it('builds with next build (server components import the client chat), and Next.js warns of nothing in its config', async () => {
    const { output } = await run('npx', ['next', 'build'], { cwd: app.dir, env });
    // Of the app's own making: a CI machine's missing build cache is the machine's.
    const warnings = output.split('\n').filter((line) => line.startsWith('⚠') && !line.includes('No build cache found'));
    expect(warnings).toEqual([]);
  });

  it('typechecks with strict tsc', async () => {
    await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { cwd: app.dir });
  });

  it('runs the refund flow in Chromium through the route handler: approved, Done, the card settled, one refund', async () => {
    const port = await freePort();
    const next = await serve('npx', ['next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
      cwd: app.dir,
      env: { ...env, AGENT_URL: `${server.url}/agents/refund` },
      url: `http://127.0.0.1:${port}/`,
    });
    try {
      // Prerendered with cacheComponents (as create-next-app sets it up): the chat is in the HTML, not left for the browser.
      const html = await (await fetch(next.url)).text();
      expect(html).toContain('agk-composer__input');
      const flow = await refundFlow(next.url);
      expect(flow.status).toBe('Done');
      expect(flow.problems).toEqual([]);
      expect(server.effects().map((e) => e.kind)).toEqual(['refund']);
      // On a phone the conversation keeps most of the screen, not the few lines a parent without a height leaves it.
      const phone = await conversationOnPhone(next.url);
      expect(phone.height).toBeGreaterThan(phone.viewport / 2);
    } finally {
      await next.stop();
    }
  });
});
