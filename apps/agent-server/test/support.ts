import type { RunAgentInput } from '@aguikit/core';
import { afterEach } from 'vitest';
import { type AgentServer, type AgentServerOptions, startAgentServer } from '../src/server.js';

/** A fixed clock, so interrupt expiry and recomputed runs are the same on every server of a test. */
export const NOW = Date.parse('2026-11-30T12:00:00Z');

const started = new Set<AgentServer>();

/** A real server on 127.0.0.1, port 0, closed after the test. */
export async function startServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  const server = await startAgentServer({ host: '127.0.0.1', port: 0, now: () => NOW, ...options });
  started.add(server);
  return server;
}

/** Closes a server early (a crash or a shutdown under test); afterEach skips it. */
export async function stopServer(server: AgentServer): Promise<void> {
  started.delete(server);
  await server.close();
}

afterEach(async () => {
  const open = [...started];
  started.clear();
  await Promise.all(open.map((s) => s.close()));
});

export function userInput(threadId: string, runId: string, content = 'My teapot from order A-1001 arrived broken.'): RunAgentInput {
  return { threadId, runId, messages: [{ id: `${runId}-user`, role: 'user', content }], tools: [], context: [] };
}

export function post(server: AgentServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface Frame {
  id?: string;
  data?: string;
  comment?: string;
}

/** The frames of an SSE text: the server writes `id:` and one `data:` line per event, and `: ping` comments. */
export function parseFrames(text: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of text.split('\n\n')) {
    if (!block) continue;
    const frame: Frame = {};
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) frame.id = line.slice(4);
      else if (line.startsWith('data: ')) frame.data = line.slice(6);
      else if (line.startsWith(':')) frame.comment = line.slice(1).trim();
      else throw new Error(`Unexpected SSE line: ${line}`);
    }
    frames.push(frame);
  }
  return frames;
}

export interface WireEvent {
  id: string;
  event: { type: string } & Record<string, unknown>;
}

/** The events of a whole SSE response, checking every frame has an id and JSON data. */
export async function readEvents(response: Response): Promise<WireEvent[]> {
  const frames = parseFrames(await response.text()).filter((f) => f.comment === undefined);
  return frames.map((f) => {
    if (f.id === undefined || f.data === undefined) throw new Error(`A frame without id or data: ${JSON.stringify(f)}`);
    return { id: f.id, event: JSON.parse(f.data) as WireEvent['event'] };
  });
}

/** The interrupts the last RUN_FINISHED of a run opened. */
export function interruptsOf(events: readonly WireEvent[]): { id: string }[] {
  const last = events.at(-1)?.event as { outcome?: { interrupts?: { id: string }[] } } | undefined;
  return last?.outcome?.interrupts ?? [];
}
