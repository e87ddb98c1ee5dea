/**
 * examples/next-app (App Router) installed from the tarballs with plain npm,
 * outside the workspace: `next build`, strict `tsc`, then the refund flow in
 * Chromium against `next start`, the agent reached through the app's route
 * handler (/api/agent), which streams the agent server's SSE through.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, startAgentServer } from '../apps/agent-server/src/server.js';
import { freePort, type Installed, installExample, refundFlow, run, serve } from './harness.js';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

describe('examples/next-app from the tarballs', () => {
  let app: Installed;
  let server: AgentServer;
  let dataDir: string;

  beforeAll(async () => {
    app = await installExample('next-app');
    dataDir = await mkdtemp(join(tmpdir(), 'aguikit-pack-agent-'));
    server = await startAgentServer({ host: '127.0.0.1', port: 0, dataDir, speed: 20 });
  });

  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    await app?.remove();
  });

  it('builds with next build (server components import the client chat)', async () => {
    await run('npx', ['next', 'build'], { cwd: app.dir, env });
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
      const flow = await refundFlow(next.url);
      expect(flow.status).toBe('Done');
      expect(flow.problems).toEqual([]);
      expect(server.effects().map((e) => e.kind)).toEqual(['refund']);
    } finally {
      await next.stop();
    }
  });
});
