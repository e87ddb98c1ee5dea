/**
 * The official AG-UI conformance corpus over the wire: every stream fixture
 * (the manifest's and the extras) is served as a real HTTP + SSE response from
 * a loopback server, the way the official runner serves it (FORMAT §5: `200`,
 * `Content-Type: text/event-stream`, one `data: <JSON>` frame per event, then
 * the response ends), and read by `httpSseSource` + `createAgentStore`, whose
 * final `thread` and `onEvent` events are checked with the same tables and the
 * same semantics as the in-memory replay (core's conformance.test.ts; see
 * core/test/support/conformance.ts for the mapping). Events go out exactly as
 * the fixture writes them (no `timestamp` is filled in), so what reaches the
 * reducer is comparable with the in-memory replay.
 *
 * The store runs with the first RUN_STARTED's thread id (as the official
 * runner does), the fixture's `input.messages` as `initialMessages`, and no
 * new message. What only the wire can show is checked too: the body the store
 * POSTed (`request`, `requestAbsentPaths`, and for every fixture the thread id,
 * aguikit's protocol version "1.0" and the history as given), the raw events
 * arriving intact and in order, the transport ending cleanly, every diagnostic
 * reaching `onDiagnostic`, and a stream cut off inside a run never counting as
 * a success. Fixtures whose request aguikit deliberately makes differently are
 * listed in WIRE_DIFFERENT, each with its reason and an assertion of what
 * aguikit sends instead.
 *
 * The corpus is read in place; the suite is skipped, with a notice, where it is absent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Diagnostic, type ExpandedEvent, httpSseSource, type Message, type RunAgentInput } from '@aguikit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS,
  check,
  checkRequest,
  codes,
  corpusPresent,
  DIFFERENT,
  type Expectation,
  type Fixture,
  loadFixtures,
  type Replay,
  resolve,
  summarize,
} from '../../core/test/support/conformance.js';
import { type ActionResult, type AgentStoreState, createAgentStore } from '../src/index.js';

if (!corpusPresent) console.warn(`AG-UI conformance corpus not found at ${CORPUS}: the wire conformance suite is skipped.`);

/** What the server received for one fixture. */
interface Received {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  /** The POSTed body, parsed (or its text when it is not JSON). */
  body: unknown;
}

interface WireReplay extends Replay {
  request: Received;
  result: ActionResult;
  store: AgentStoreState;
  /** Every diagnostic passed to `onDiagnostic`. */
  reported: Diagnostic[];
}

interface WireDifference {
  reason: string;
  /** Replaces request expectation keys, after the shared DIFFERENT overlay. */
  expect: Expectation;
  /** What aguikit sends instead: always asserted. */
  check: (replay: WireReplay) => void;
}

const PINNED_REQUEST = 'pinned peer (client.maxProtocolVersion): aguikit has no peer ceiling and no downgrade shims';
const LEGACY_BINARY = 'aguikit does not translate the legacy `binary` content part: the history the application gives goes out as given';

/** The RunAgentInput the server received. */
const sent = (replay: WireReplay) => replay.request.body as RunAgentInput;

/** The request fixtures aguikit deliberately answers differently, each with the reason and an assertion of what it sends. */
const WIRE_DIFFERENT: Record<string, WireDifference> = {
  'current-peer-declares-protocol-version': {
    reason: 'aguikit speaks protocol 1.0 (it reads 1.1 streams, but declares the version it sends, 1.0)',
    expect: { request: { protocolVersion: '1.0' } },
    check: (replay) => {
      expect(sent(replay).protocolVersion).toBe('1.0');
    },
  },
  'era-0-0-39-flattens-content': {
    reason: `${PINNED_REQUEST}: the multimodal user message goes out whole, image part included`,
    expect: {
      request: {
        threadId: 't-era39',
        protocolVersion: '1.0',
        messages: [
          {
            id: 'era39-u1',
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image', source: { type: 'url', value: 'https://example.com/cat.png', mimeType: 'image/png' } },
            ],
          },
        ],
      },
    },
    check: (replay) => {
      expect(sent(replay).messages).toEqual(replay.fixture.input?.messages);
      expect(sent(replay).messages[0]?.content).toHaveLength(2);
    },
  },
  'era-0-0-47-upgrades-binary-content': {
    reason: `${PINNED_REQUEST}; ${LEGACY_BINARY}`,
    expect: {
      request: {
        threadId: 't-era47',
        messages: [
          {
            id: 'era47-u1',
            role: 'user',
            content: [
              { type: 'text', text: 'Describe it.' },
              { type: 'binary', mimeType: 'image/png', url: 'https://example.com/legacy.png' },
            ],
          },
        ],
      },
    },
    check: (replay) => {
      expect(sent(replay).messages).toEqual(replay.fixture.input?.messages);
    },
  },
  'era-current-peer-keeps-modern-content': {
    reason: `${LEGACY_BINARY}; the modern content and the attributed assistant message (what the fixture's rule is about) go out undamaged`,
    expect: {
      request: {
        messages: [
          {
            id: 'eracur-u1',
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image', source: { type: 'url', value: 'https://example.com/cat.png', mimeType: 'image/png' } },
            ],
          },
          {
            id: 'eracur-u2',
            role: 'user',
            content: [{ type: 'binary', mimeType: 'image/png', url: 'https://example.com/legacy.png' }],
          },
          { id: 'eracur-a1', role: 'assistant', content: 'Delegated.', subagentRunId: 'eracur-s0' },
        ],
      },
    },
    check: (replay) => {
      // The modern messages are exactly what the corpus expects.
      const wanted = (replay.fixture.expect.request as { messages: Message[] }).messages;
      const { messages } = sent(replay);
      expect(messages[0]).toEqual(wanted[0]);
      expect(messages[2]).toEqual(wanted[2]);
    },
  },
  'era-pinned-peer-omits-protocol-version': {
    reason: `${PINNED_REQUEST}: aguikit declares the version it speaks, 1.0, on every request`,
    expect: { requestAbsentPaths: [], request: { protocolVersion: '1.0' } },
    check: (replay) => {
      expect(sent(replay).protocolVersion).toBe('1.0');
    },
  },
};

/** Flushes soon after the first event of a batch, without waiting for animation frames. */
const soon = (flush: () => void) => {
  const t = setTimeout(flush, 0);
  return () => clearTimeout(t);
};

const typeOf = (event: unknown) => (event as { type?: unknown } | null)?.type;

/** The thread id the client runs with: the first RUN_STARTED's, as the official runner does (FORMAT §5). */
function threadIdOf(fixture: Fixture): string | undefined {
  const started = fixture.stream.find((e) => typeOf(e) === 'RUN_STARTED') as { threadId?: unknown } | undefined;
  return typeof started?.threadId === 'string' ? started.threadId : undefined;
}

/** The stream ends inside a run: a RUN_STARTED that no RUN_FINISHED or RUN_ERROR follows. */
function cutOff(stream: readonly unknown[]): boolean {
  let open = false;
  for (const event of stream) {
    const type = typeOf(event);
    if (type === 'RUN_STARTED') open = true;
    else if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') open = false;
  }
  return open;
}

/** A loopback server that answers `/<fixture name>` with that fixture's stream as SSE and records each request. */
function corpusServer(fixtures: readonly Fixture[]) {
  const streams = new Map(fixtures.map((f) => [f.name, f.stream]));
  const received = new Map<string, Received>();
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const stream = streams.get(name);
      if (!stream) {
        res.writeHead(404).end();
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the request checks then fail with what was sent.
      }
      received.set(name, { method: req.method, headers: req.headers, body });
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const event of stream) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  return {
    async start(): Promise<string> {
      await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    },
    stop(): Promise<void> {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
    received,
  };
}

describe.skipIf(!corpusPresent)('AG-UI conformance corpus over HTTP + SSE', () => {
  const fixtures = corpusPresent ? loadFixtures() : [];
  const server = corpusServer(fixtures.map((f) => f.fixture));
  let base = '';

  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());

  async function replayOverWire(fixture: Fixture): Promise<WireReplay> {
    const events: ExpandedEvent[] = [];
    const reported: Diagnostic[] = [];
    const threadId = threadIdOf(fixture);
    const store = createAgentStore({
      source: httpSseSource({ url: `${base}${encodeURIComponent(fixture.name)}` }),
      ...(threadId !== undefined ? { threadId } : {}),
      ...(fixture.input?.messages ? { initialMessages: fixture.input.messages } : {}),
      onEvent: (event) => events.push(event),
      onDiagnostic: (d) => reported.push(d),
      scheduler: soon,
    });
    const result = await store.getState().run();
    const request = server.received.get(fixture.name);
    if (!request) throw new Error(`the server received no request for ${fixture.name}`);
    const state = store.getState();
    // The raw events arrived intact and in order.
    expect(store.log.entries.map((e) => e.event)).toEqual(fixture.stream);
    return { ...summarize(fixture, state.thread, events), request, result, store: state, reported };
  }

  it('covers the 68 fixtures of the manifest and the extras', () => {
    expect(fixtures.filter((f) => f.file.startsWith('streams/'))).toHaveLength(68);
    expect(fixtures.length).toBeGreaterThan(68);
    const names = new Set(fixtures.map((f) => f.fixture.name));
    for (const name of Object.keys(WIRE_DIFFERENT)) expect(names, `table entry ${name} names no fixture`).toContain(name);
    const cut = fixtures.filter((f) => cutOff(f.fixture.stream)).map((f) => f.fixture.name);
    expect(cut).toEqual(expect.arrayContaining(['truncated-run-reported-as-completed', 'truncated-stream-fails-the-run']));
  });

  for (const { fixture } of fixtures) {
    it(fixture.name, async () => {
      const run = await replayOverWire(fixture);
      const { request, result, store, state } = run;

      // The transport itself never failed (every stream is well-formed SSE): a failure only says a run was cut off,
      // or that the stream said nothing of a run (neither RUN_STARTED nor RUN_ERROR: the conformance outcome "failed").
      const saysNoRun = !fixture.stream.some((e) => ['RUN_STARTED', 'RUN_ERROR'].includes((e as { type?: string }).type ?? ''));
      expect(store.failure?.code).toBe(state.run.status === 'unknown' ? 'CONNECTION_LOST' : saysNoRun ? 'INVALID_STREAM' : undefined);
      expect(store.connection).toBe(saysNoRun ? 'failed' : 'closed');
      expect(store.inFlight).toBeUndefined();
      expect(result).toEqual({ ok: true, status: state.run.status });
      // A stream cut off inside a run is never a success.
      if (cutOff(fixture.stream)) {
        expect(state.run.status).not.toBe('success');
        expect(Object.values(state.runs).map((r) => r.status)).not.toContain('running');
        expect(codes(state.diagnostics)).toContain('STREAM_TRUNCATED');
      }
      // onDiagnostic heard every diagnostic the thread ends with, the truncation of a dropped stream included.
      expect(run.reported).toEqual(state.diagnostics);

      // What the store POSTed: aguikit's protocol version, the thread, the history as given.
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers.accept).toBe('text/event-stream');
      expect(request.body).toMatchObject({ threadId: threadIdOf(fixture) ?? store.thread.threadId, protocolVersion: '1.0' });
      expect(sent(run).runId).toEqual(expect.any(String));
      expect(sent(run).messages).toEqual(fixture.input?.messages ?? []);
      expect(sent(run)).not.toHaveProperty('parentRunId');

      const want = resolve(fixture, WIRE_DIFFERENT[fixture.name]?.expect);
      check(run, want);
      checkRequest(request.body, want);
      DIFFERENT[fixture.name]?.check(run);
      WIRE_DIFFERENT[fixture.name]?.check(run);
    });
  }
});
