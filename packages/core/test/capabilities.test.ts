/**
 * Capability discovery: an agent says what it supports, so a UI can hide
 * what it does not. `agUiAgentSource` asks an `@ag-ui/client` agent's
 * `getCapabilities()`; `httpSseSource` takes them from an option or from a
 * capabilities endpoint; the controller's snapshot holds them.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { agUiAgentSource, createRunController, httpSseSource } from '../src/index.js';

const CAPS = { tools: { supported: true }, humanInTheLoop: { supported: true, interrupts: true } };

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('capabilities', () => {
  it('agUiAgentSource reads getCapabilities() where the agent has it, and the controller exposes them', async () => {
    const agent = {
      run: () => ({ subscribe: () => ({ unsubscribe() {} }) }),
      getCapabilities: async () => CAPS,
    };
    const source = agUiAgentSource(agent);
    expect(await source.capabilities?.()).toEqual(CAPS);
    const controller = createRunController({ source });
    await waitFor(() => controller.getSnapshot().capabilities !== undefined);
    expect(controller.getSnapshot().capabilities).toEqual(CAPS);
    controller.destroy();
  });

  it('an agent without getCapabilities gives none, and the snapshot says unknown (undefined)', async () => {
    const source = agUiAgentSource({ run: () => ({ subscribe: () => ({ unsubscribe() {} }) }) });
    expect(source.capabilities).toBeUndefined();
    const controller = createRunController({ source });
    await new Promise((r) => setTimeout(r, 10));
    expect(controller.getSnapshot().capabilities).toBeUndefined();
  });

  it('httpSseSource takes them from its option', async () => {
    const source = httpSseSource({ url: 'http://127.0.0.1:1/agent', capabilities: CAPS });
    expect(await source.capabilities?.()).toEqual(CAPS);
  });

  it('httpSseSource reads them from a capabilities endpoint (GET, JSON), and a failing endpoint gives none', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/caps') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CAPS));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      expect(await httpSseSource({ url: `${base}/agent`, capabilities: `${base}/caps` }).capabilities?.()).toEqual(CAPS);
      expect(await httpSseSource({ url: `${base}/agent`, capabilities: `${base}/missing` }).capabilities?.()).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('with idleTimeoutMs, an endpoint that never answers gives none within it, instead of a promise that never settles', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const began = Date.now();
      expect(
        await httpSseSource({ url: `${base}/agent`, capabilities: `${base}/caps`, idleTimeoutMs: 100 }).capabilities?.(),
      ).toBeUndefined();
      expect(Date.now() - began).toBeLessThan(2_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
