/**
 * Global setup of the browser tests: a real AG-UI endpoint on loopback that
 * streams a scripted run over HTTP + SSE in small, awkward network chunks
 * (CRLF line ends, heartbeats, a multi-byte character split between writes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { ANSWER } from './answer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    agentUrl: string;
  }
}

function script(threadId: string, runId: string): string[] {
  const events: object[] = [
    { type: 'RUN_STARTED', threadId, runId },
    { type: 'TEXT_MESSAGE_START', messageId: 'answer', role: 'assistant' },
    ...Array.from(ANSWER.match(/.{1,4}/gu) ?? [], (delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'answer', delta })),
    { type: 'TEXT_MESSAGE_END', messageId: 'answer' },
    { type: 'RUN_FINISHED', threadId, runId },
  ];
  return events.map((e, i) => `id: ${i}\r\ndata: ${JSON.stringify(e)}\r\n\r\n${i % 5 === 0 ? ':heartbeat\r\n\r\n' : ''}`);
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'content-type, accept, last-event-id');
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return;
  }
  let body = '';
  for await (const chunk of req) body += String(chunk);
  const input = JSON.parse(body) as { threadId: string; runId: string };
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.socket?.setNoDelay(true);
  const bytes = Buffer.from(script(input.threadId, input.runId).join(''), 'utf8');
  // Chunks of 7 bytes split frames, lines and multi-byte characters alike.
  for (let at = 0; at < bytes.length; at += 7) {
    res.write(bytes.subarray(at, at + 7));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  res.end();
}

export default async function setup(project: TestProject) {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('agentUrl', `http://127.0.0.1:${port}/agent`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
