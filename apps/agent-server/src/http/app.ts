import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunAgentInput } from '@aguikit/core';
import { type EventPlan, findScenario, scenarios } from '@aguikit/scenarios';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { parseEventId, RequestError, withLeadingSpaces } from '../request.js';
import { canonicalJson } from '../storage/idempotency.js';
import {
  type EffectRecord,
  type RunRecord,
  type Storage,
  StorageUnavailable,
  type ThreadRecord,
  WaitingShareFull,
} from '../storage/types.js';
import { checkResume, nextThread, raisedBy } from '../threads.js';
import { clientAddress } from './clientAddress.js';
import { clientErrors } from './clientErrors.js';
import { createDelivery, type Delivery } from './delivery.js';
import { effectsArray } from './effectsList.js';
import { checkKnobs, effectsQuery, playbackChecks, speedOf } from './limits.js';
import { checkCaller, type OriginPolicy } from './origin.js';
import { readiness } from './readiness.js';
import {
  allowedMethods,
  asRequestError,
  closeUnread,
  doubleContentType,
  isJson,
  MAX_PATH_SEGMENT,
  METHODS,
  refuseTarget,
  refuseTunnel,
  refuseUnrouted,
  scenarioOf,
  tooLarge,
  unreadCoding,
  utf8Header,
} from './requests.js';
import type { Reservation } from './reservations.js';
import { eventsOf } from './runEvents.js';
import { runStreams } from './runStreams.js';
import { checkRunInput, parseJsonBody, runInputSchema } from './schema.js';

/** How long a client refused for want of room among the runs being produced is asked to wait. */
const RETRY_AFTER_S = 5;

/**
 * A body's bytes as text; bytes that are no UTF-8 are refused, not replaced (two ids would become one). A byte order
 * mark before the JSON (.NET's `StreamWriter` writes one) is dropped, as RFC 8259 lets a parser do.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface AppOptions {
  storage: Storage;
  /** Read on every request: the server's port (and so its allowed hosts) is known only once it listens. */
  policy: () => OriginPolicy;
  speed: number;
  /** Per-request caps on `forwardedProps` knobs. */
  knobLimits: Readonly<Record<string, number>>;
  /** The longest a run may take to play at the speed its request asks for. */
  maxPlaybackMs: number;
  heartbeatMs: number;
  /** A client whose stream has not drained for this long is disconnected. */
  drainTimeoutMs: number;
  /** A client whose stream has not drained for this long no longer holds its run back (see `RunStreamOptions`). */
  stallTimeoutMs: number;
  maxBodyBytes: number;
  /** The most runs produced at once, and the most body bytes they and the streams of retries and reconnects hold (see `AgentServerOptions`). */
  maxRuns: number;
  /** The most runs the requests of one client address hold room for at once (see `AgentServerOptions`). */
  maxRunsPerAddress: number;
  maxRunInputBytes: number;
  /** How long a request's headers and body may take to arrive. */
  requestTimeoutMs: number;
  /** How long a request's headers may take to arrive (no longer than `requestTimeoutMs`). */
  headersTimeoutMs: number;
  /** How long a connection is kept open, idle, after an answer, for the client's next request. */
  keepAliveTimeoutMs: number;
  now: () => number;
  /** A fresh secret for each run (see `RunRecord.nonce`). */
  nonce: () => string;
  logger: NonNullable<FastifyServerOptions['logger']>;
  /** Called with every effect record the server performed or found already performed. */
  onEffect: (record: EffectRecord) => void;
}

export interface App {
  fastify: FastifyInstance;
  /** Ends every open stream cleanly (before the run finished: its clients reconnect for the rest); the runs go on, unpaced. */
  endStreams(): void;
  /** Resolves once every run accepted has been produced to its end (or storage failed). */
  settled(): Promise<void>;
  /** When the oldest run still being produced started; undefined when none is. */
  oldestProducing(): number | undefined;
  /** Starts producing, without a client, the runs a process before this one began and never finished (see `Storage.unfinished`). */
  finishUnfinished(): Promise<void>;
  /** Whether a client reads run `runId` now, or this server produces it: memory storage keeps it meanwhile. */
  inUse(runId: string): boolean;
  /** The address of the client whose request begins run `runId` now, as `clientAddress` counts it (memory storage's `ownerOf`). */
  ownerOf(runId: string): string | undefined;
}

/** A `Retry-After` of `ms` from now: whole seconds, at least 1. */
const retryAfter = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** Conflicting writes to one thread (two requests at once) are retried this often before a 503. */
const BEGIN_ATTEMPTS = 8;

/**
 * A run's input as JSON text, written once per input object: a retry or reconnect of a run of a 1 MB input compares it
 * and hashes it for its key among the playback checks.
 */
const inputTexts = new WeakMap<RunAgentInput, string>();
const inputText = (input: RunAgentInput) => {
  let text = inputTexts.get(input);
  if (text === undefined) {
    text = JSON.stringify(input);
    inputTexts.set(input, text);
  }
  return text;
};

/**
 * A run's key among the playback checks: all its plan is made of (its scenario, its input, its start and its secret).
 * Its id, start and secret alone are shared by two requests for one run id on a server whose clock and secret are
 * fixed (the `now` and `nonce` options), the first one refused after its check (no room): the second, longer, would
 * pass by the first's bound. The input is hashed as its JSON text: storage keeps its keys in their order, so the run
 * begun and the run read back have one key (an input whose keys were in another order would only miss the bound kept,
 * and have it worked out again).
 */
const playbackKey = (run: RunRecord) =>
  [run.runId, run.startedAt, run.nonce, run.scenarioId, createHash('sha256').update(inputText(run.input)).digest('base64')].join('\u0000');

/**
 * The same `RunAgentInput` (the same JSON, keys in any order): the client that started a run sends it again to retry or
 * reconnect. The same text is the same JSON, found without sorting every object's keys; only texts that differ are
 * compared key by key, sorted (the same input with its keys in another order).
 */
const sameInput = (a: RunAgentInput, b: RunAgentInput) => inputText(a) === inputText(b) || canonicalJson(a) === canonicalJson(b);

/**
 * The HTTP layer of the agent server on Fastify: origin and host checks,
 * `application/json` only, a body limit (the connection is closed after a
 * 413), JSON Schema validation with a nesting limit before anything is
 * applied, HEAD for every GET, and JSON logs of every request and every 5xx.
 * Runs stream as SSE written by `@ag-ui/encoder`; every frame is stored
 * before it is sent, so a reconnect reads the log and continues from it.
 */
export function buildApp(options: AppOptions): App {
  const { storage } = options;
  // That a client read a run's end outlives the process: a restart, or another instance, knows it too.
  const told = createDelivery(undefined, (runId) => {
    storage.markRead(runId).catch((e: unknown) => fastify.log.warn({ err: e, runId }, 'could not note that a run was read'));
  });
  /** The clients reading each run now (`inUse`). */
  const readers = new Map<string, number>();
  /** The client address of each run being begun now (`ownerOf`). */
  const beginning = new Map<string, string>();
  /** The requests for each run being answered now, from before its record is looked up (`inUse`). */
  const requests = new Map<string, number>();
  const delivery: Delivery = {
    ...told,
    opened(runId) {
      readers.set(runId, (readers.get(runId) ?? 0) + 1);
      told.opened(runId);
    },
    closed(runId, readEnd) {
      const left = (readers.get(runId) ?? 1) - 1;
      if (left > 0) readers.set(runId, left);
      else readers.delete(runId);
      told.closed(runId, readEnd);
    },
  };
  const streams = runStreams({ ...options, delivery, log: () => fastify.log });
  const { stream } = streams;
  const parserRefusals = clientErrors();
  /** Whether the rest of a run plays within `maxPlaybackMs`, each run's events made once for it (see `playbackChecks`). */
  const checkPlayback = playbackChecks(options.maxPlaybackMs);
  const fastify = Fastify({
    logger: options.logger,
    bodyLimit: options.maxBodyBytes,
    exposeHeadRoutes: true,
    forceCloseConnections: true,
    // A request (headers and body) must arrive within this time: a body that never finishes does not hold a connection.
    requestTimeout: options.requestTimeoutMs,
    // An idle connection after an answer is kept this long for the client's next request, longer than a proxy in
    // front keeps it (72 s by default); under pressure on `maxConnections` it is closed sooner (idleConnections.ts).
    keepAliveTimeout: options.keepAliveTimeoutMs,
    http: {
      // A connection that sends nothing, or its headers a byte at a time, is dropped once its headers are this late.
      // Node checks only a headers timeout no longer than the request timeout.
      headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
      // Node looks for requests over their time this often (30 s by default, longer than a short timeout): a late
      // request is dropped at most a twentieth of its timeout after it (a look costs a walk of the connections held).
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.max(50, Math.floor(Math.min(options.headersTimeoutMs, options.requestTimeoutMs) / 20)),
      ),
      // A request without a Host is refused by checkCaller, with a body that says why (Node's 400 has none).
      requireHostHeader: false,
    },
    // What Node's parser refuses gets the server's error shape too (clientErrors.ts).
    clientErrorHandler: parserRefusals.handler,
    routerOptions: {
      // A path whose percent-encoding does not decode (or a target that is no URL at all), or a path segment longer
      // than the router takes, is the client's error. Either skips the hooks: the Host and the Origin are checked
      // here as onRequest checks them.
      onBadUrl: refuseTarget(options.policy, () => new RequestError(400, 'MALFORMED_URL', 'The request target is not a valid URL.')),
      maxParamLength: MAX_PATH_SEGMENT,
      onMaxParamLength: refuseTarget(
        options.policy,
        () => new RequestError(414, 'PATH_TOO_LONG', `A part of the request path is longer than ${MAX_PATH_SEGMENT} characters.`),
      ),
    },
    // The schema is checked as written: no coercion of `7` into `"7"`, no defaults, nothing removed.
    ajv: { customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false } },
  });
  // Node answers `Expect: 100-continue` with a 100 at once; the route says it once it takes the request (preParsing).
  // Node hands over only an HTTP/1.1 client's: an HTTP/1.0 client cannot take a 100, and sends its body unasked.
  const awaitsContinue = new WeakSet<IncomingMessage>();
  fastify.server.on('checkContinue', (request, response) => {
    awaitsContinue.add(request);
    fastify.server.emit('request', request, response);
  });
  // Any other expectation is one this server cannot meet (Node's own 417 has no body).
  fastify.server.on(
    'checkExpectation',
    (request: IncomingMessage, response: ServerResponse) =>
      void refuseTarget(
        options.policy,
        () =>
          new RequestError(
            417,
            'EXPECTATION_FAILED',
            'This server meets no expectation but 100-continue: send the request again without its Expect header.',
          ),
      )('', request, response),
  );
  fastify.server.on(
    'connect',
    refuseTunnel(options.policy, () => fastify.log),
  );
  fastify.removeAllContentTypeParsers();
  /** The size of each request's body, which a run it starts holds while it is produced. */
  const bodyBytes = new WeakMap<FastifyRequest, number>();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    bodyBytes.set(request, (body as Buffer).length);
    try {
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        throw new RequestError(400, 'MALFORMED_JSON', 'The body is not UTF-8 text.');
      }
      done(null, parseJsonBody(text));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  // Before routing and before the body is read: a request that fails here has done nothing.
  fastify.addHook('onRequest', async (request, reply) => {
    parserRefusals.started(request.raw, reply.raw);
    reply.header('Vary', 'Origin');
    const caller = checkCaller(options.policy(), request.raw);
    if (caller.refusal) throw caller.refusal;
    const origin = caller.allowOrigin;
    if (origin !== undefined) reply.header('Access-Control-Allow-Origin', origin);
    if (request.method === 'OPTIONS') {
      // A preflight passes wherever it asks, so the request itself gets its answer (a 404 the page can read): a
      // failed preflight would hide it behind a CORS error. A plain OPTIONS asks what the resource takes, and
      // `OPTIONS *` what the server does as a whole.
      if (request.headers['access-control-request-method'] === undefined)
        reply.header('Allow', request.url === '*' ? [...METHODS].join(', ') : allowedMethods(request.method, request.url));
      if (origin !== undefined) {
        reply.header('Access-Control-Allow-Methods', 'GET, HEAD, POST, OPTIONS');
        reply.header('Access-Control-Allow-Headers', 'content-type, accept, last-event-id, authorization');
        reply.header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    }
    if (!METHODS.has(request.method)) {
      reply.header('Allow', allowedMethods(request.method, request.url));
      throw new RequestError(405, 'METHOD_NOT_ALLOWED', 'This server answers GET, HEAD and OPTIONS, and POST to /agents/:scenario.');
    }
    // No route takes the method here: refused before a body is read (a client that waits to be told to send one,
    // `Expect: 100-continue`, would wait for ever).
    if (request.is404) refuseUnrouted(request, reply);
    // Content-Type and Content-Encoding describe a body: only a POST's is read (Fastify reads none of a GET's or HEAD's).
    const bodyRead = request.method === 'POST';
    const types = bodyRead ? doubleContentType(request.raw.rawHeaders) : undefined;
    if (types) throw types;
    if (bodyRead && !isJson(request.headers['content-type']))
      throw new RequestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'POST a body of Content-Type application/json.');
    const coding = unreadCoding(request.headers, bodyRead);
    if (coding?.status === 415) reply.header('Accept-Encoding', 'identity');
    if (coding) throw coding;
  });

  fastify.setErrorHandler((error, request, reply) => {
    const e = asRequestError(error);
    // A 501 is the client's coding this server does not read: nothing of the server's failed.
    if (e.status >= 500 && e.status !== 501) request.log.error({ err: error, status: e.status }, 'request failed');
    closeUnread(request, reply);
    // Storage that did not answer (a lock held elsewhere, a disk full) may answer soon: the client is told when to
    // try again, unless it was told already when its run is tried next.
    if (e.code === 'STORAGE_UNAVAILABLE' && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(RETRY_AFTER_S));
    return reply
      .code(e.status)
      .type('application/json')
      .send({ error: { code: e.code, message: e.message } });
  });
  // What no route takes is refused as it arrives (onRequest); this is what the router answers had it not been.
  fastify.setNotFoundHandler(async (request, reply) => refuseUnrouted(request, reply));

  // Liveness: the process answers, whatever its storage does. Readiness: its storage answers too (a load balancer's
  // check, which sends no traffic to an instance whose Redis is gone).
  fastify.get('/health', async () => ({ ok: true, ...streams.health() }));
  const storageAnswers = readiness(() => storage.ping(), fastify.log);
  fastify.get('/ready', async (_request, reply) => {
    if (await storageAnswers()) return { ready: true };
    // Said, not thrown: a probe every few seconds logs nothing more (the failure and the recovery are logged once).
    return reply
      .code(503)
      .type('application/json')
      .send({ error: { code: 'STORAGE_UNAVAILABLE', message: 'Storage does not answer: this instance is not ready.' } });
  });
  fastify.get('/agents', async () =>
    Object.values(scenarios).map(({ id, title, description, prompt }) => ({ id, title, description, prompt })),
  );
  // Every effect in one array without a query (as before paging); `?after=<cursor>&limit=N` a page of them.
  fastify.get<{ Querystring: Record<string, unknown> }>('/effects', async (request, reply) => {
    const query = effectsQuery(request.query);
    if (!query) {
      const array = await effectsArray(storage, request.method === 'HEAD');
      dropWhenNotTaken(request, reply);
      return reply.type('application/json; charset=utf-8').send(array);
    }
    const page = await storage.effectsPage(query.after, query.limit);
    dropWhenNotTaken(request, reply);
    return { effects: page.effects, next: String(page.next), more: page.more };
  });
  /**
   * An answer larger than the network's buffers is written as fast as its client takes it: from the time it is ready,
   * a client that takes nothing (nor sends anything) is dropped, as an SSE stream's client is, rather than hold its
   * connection, one of maxConnections, for as long as it stays connected. Node's socket timeout: a client that takes
   * something within each drain timeout is kept, one that takes nothing for twice it is dropped. Node sets the
   * keep-alive timeout again once the answer is written, unless the client sent its next request already (pipelined):
   * that request's answer then takes the connection with the timeout left on it, which would cut a stream of a run
   * quiet for as long; it is taken off then (unless that answer is one of effects too).
   */
  function dropWhenNotTaken(request: FastifyRequest, reply: FastifyReply): void {
    const response = reply.raw;
    dropping.add(response);
    response.setTimeout(options.drainTimeoutMs, () => {
      request.log.warn({ drainTimeoutMs: options.drainTimeoutMs }, 'client stopped reading: disconnected');
      response.destroy();
    });
    const socket = request.raw.socket;
    // After Node's own listener, which hands the connection to the next answer or sets the keep-alive timeout.
    response.once('finish', () => {
      const next = (socket as typeof socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (next && next !== response && !dropping.has(next) && !socket.destroyed) socket.setTimeout(0);
    });
  }
  /** The answers of effects that drop a client that stops taking them (`dropWhenNotTaken`). */
  const dropping = new WeakSet<ServerResponse>();
  fastify.get<{ Params: { scenario: string } }>('/agents/:scenario', async (request, reply) => {
    scenarioOf(request.params.scenario);
    reply.header('Allow', 'POST, OPTIONS');
    throw new RequestError(405, 'METHOD_NOT_ALLOWED', 'POST a RunAgentInput to this endpoint.');
  });

  fastify.post<{ Params: { scenario: string }; Querystring: { speed?: unknown }; Body: RunAgentInput }>(
    '/agents/:scenario',
    {
      schema: { body: runInputSchema },
      // An empty body never reaches the JSON parser: it is malformed JSON all the same.
      preValidation: async (request) => {
        if (request.body === undefined) throw new RequestError(400, 'MALFORMED_JSON', 'The body is empty: POST a RunAgentInput.');
      },
      // Unknown scenarios are refused before the body is parsed or checked.
      preParsing: async (request, reply) => {
        scenarioOf(request.params.scenario);
        // A client that waits to be told to send its body (`Expect: 100-continue`) is told once nothing refuses it
        // before the body: a body its Content-Length says is too large is refused here, not after a 100.
        if (awaitsContinue.has(request.raw)) {
          if (Number(request.headers['content-length']) > options.maxBodyBytes) throw tooLarge();
          reply.raw.writeContinue();
        }
      },
    },
    async (request, reply) => {
      // The run is in use from before its record is looked up to the end of its stream (whose client is then counted
      // among its readers): memory storage does not drop it for room between the look-up and the stream's opening.
      const runId = request.body.runId;
      requests.set(runId, (requests.get(runId) ?? 0) + 1);
      try {
        return await runRequest(request, reply);
      } catch (e) {
        // Storage failed under the request of a run it failed under before (its client come back): the client is told
        // when the run is tried next.
        const next = e instanceof StorageUnavailable ? streams.nextTry(request.body.runId) : undefined;
        if (next !== undefined) reply.header('Retry-After', retryAfter(next));
        throw e;
      } finally {
        const left = (requests.get(runId) ?? 1) - 1;
        if (left > 0) requests.set(runId, left);
        else requests.delete(runId);
      }
    },
  );

  /** A run begun, retried or reconnected to (`POST /agents/:scenario`). */
  async function runRequest(
    request: FastifyRequest<{ Params: { scenario: string }; Querystring: { speed?: unknown }; Body: RunAgentInput }>,
    reply: FastifyReply,
  ) {
    const scenario = scenarioOf(request.params.scenario);
    const input = checkRunInput(request.body);
    checkKnobs(input, options.knobLimits);
    const query = request.query.speed;
    const speed = speedOf(typeof query === 'string' ? query : query === undefined ? undefined : '', input, options.speed);
    const lastEventId = utf8Header(request.headers['last-event-id']);
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      const at = parseEventId(withLeadingSpaces(lastEventId, input.runId));
      if (!at || at.runId !== input.runId)
        throw new RequestError(400, 'BAD_LAST_EVENT_ID', 'The Last-Event-ID does not belong to this run.');
      const run = await storage.run(input.runId);
      // A run id is no key: only the input that started the run reads it (its thread id, its interrupts' secret ids).
      // Another input gets the answer an unknown run gets. (A new run under a taken id says RUN_EXISTS, and no more.)
      if (!run || run.scenarioId !== scenario.id || !sameInput(run.input, input))
        throw new RequestError(404, 'UNKNOWN_RUN', `Run '${input.runId}' is not known here; start a new run.`);
      const plan = eventsOf(scenario, run.input, run.startedAt, run.nonce);
      // An event of the run the log does not hold: lost with the unsynced end of the log (a power cut), or never
      // made. What comes before it is made again from the run's record, performed and stored, never skipped (a
      // side effect among it); the client gets what comes after it. The run's last event is no exception: a log
      // that lost it may have lost the side effect before it too. An id past the run's end asks for nothing more: the
      // log is whole when it holds the last event. A log that holds the client's event but not the last one has lost
      // its tail (a Redis failover): the rest is made again, even of a run produced here ahead of its pace.
      const held = (await storage.events(input.runId, Math.min(at.index, plan.length - 1), 1)).length > 0;
      // Read last: nothing it answers changes before the stream begins (see `checkRest`).
      const produced = await checkRest(plan, run, at.index + 1, speed);
      const start = !held ? { readFrom: 0 } : produced ? {} : { readFrom: at.index + 1 };
      const reservation = room(request, reply, !(produced && held) && streams.produces(run.runId, start) ? 'run' : 'stream', run.runId);
      return stream(request, reply, scenario, run, at.index + 1, speed, { ...start, reservation });
    }
    for (let attempt = 0; attempt < BEGIN_ATTEMPTS; attempt++) {
      const existing = await storage.run(input.runId);
      if (existing) {
        // The same request again is a client retrying after a drop before its first event: the run from the start.
        if (existing.scenarioId === scenario.id && sameInput(existing.input, input)) {
          const plan = eventsOf(scenario, existing.input, existing.startedAt, existing.nonce);
          // A log short of the run's end is made whole (see the reconnect's above), unless it is being made here.
          const start = (await checkRest(plan, existing, 0, speed)) ? {} : { readFrom: 0 };
          const kind = start.readFrom !== undefined && streams.produces(existing.runId, start) ? 'run' : 'stream';
          return stream(request, reply, scenario, existing, 0, speed, {
            ...start,
            reservation: room(request, reply, kind, existing.runId),
          });
        }
        throw new RequestError(
          409,
          'RUN_EXISTS',
          `Run '${input.runId}' already exists with another input: reconnect with Last-Event-ID, or use a new run id.`,
        );
      }
      const startedAt = options.now();
      const { record, version } = await storage.thread(input.threadId);
      // Interrupts raised after every client of their run went (Stop, a closed tab): no one saw them to answer.
      const unseen = delivery.unseen((record?.open ?? []).map((it) => it.id)) || (await unreadElsewhere(record));
      checkResume(record, input, startedAt, unseen);
      const run: RunRecord = {
        runId: input.runId,
        threadId: input.threadId,
        scenarioId: scenario.id,
        input,
        startedAt,
        nonce: options.nonce(),
      };
      const events = eventsOf(scenario, input, startedAt, run.nonce);
      const keepBound = checkPlayback.ahead(playbackKey(run), events, speed);
      // Room among the runs being produced, held from before the run is stored: none is stored that cannot be produced.
      const reservation = room(request, reply, 'run');
      let outcome: Awaited<ReturnType<Storage['beginRun']>> | undefined;
      // Read by memory storage as beginRun is called, before it awaits anything: another request for the run id cannot
      // have set its own address meanwhile.
      beginning.set(run.runId, clientAddress(request.raw.socket.remoteAddress ?? ''));
      try {
        outcome = await storage.beginRun(run, nextThread(record, input, events, unseen), version);
      } catch (e) {
        if (e instanceof WaitingShareFull)
          throw new RequestError(
            429,
            'TOO_MANY_WAITING_THREADS',
            `The threads this client address left waiting on an answer hold as much as one address may (${e.maxBytes} bytes): answer or cancel their interrupts, or wait until they expire.`,
          );
        throw e;
      } finally {
        beginning.delete(run.runId);
        if (outcome !== 'created') reservation.release();
      }
      if (outcome === 'created') {
        keepBound();
        delivery.begun(run.runId, raisedBy(events));
        return stream(request, reply, scenario, run, 0, speed, { fresh: events, reservation });
      }
      // The id is taken by a record storage cannot read (skipped as damaged): no attempt will ever get past it.
      if (outcome === 'exists' && !(await storage.run(input.runId)))
        throw new RequestError(409, 'RUN_EXISTS', `Run '${input.runId}' exists, but its record cannot be read: use a new run id.`);
      // Another request changed the thread or took the run id meanwhile: look again.
    }
    throw new RequestError(503, 'BUSY', 'The thread is being changed by other requests; try again.');
  }

  /**
   * Room for the body `request` holds among the bodies held at once (`RunStreams.reserve`): a new run's, or a
   * stream's of a run begun already (a retry or a reconnect, which holds its parsed body as long as it
   * streams); else the 503 that asks its client to come back in a few seconds. A retry or reconnect that
   * produces what its run's log lacks (`RunStreams.produces`: none produces it here, as after a restart, on another
   * instance, or after storage failed under its producer) takes room as a new run: it holds what a new run holds.
   * One that only reads a log that holds its run to its end does not; one of a run that waits to be tried again takes
   * the room that run kept (`runId`).
   */
  function room(request: FastifyRequest, reply: FastifyReply, kind: 'run' | 'stream', runId?: string): Reservation {
    const address = clientAddress(request.raw.socket.remoteAddress ?? '');
    // A cap of `maxRuns` or more is no cap of its own: the room among all runs is what refuses, with its 503.
    const capped = options.maxRunsPerAddress < options.maxRuns;
    // A client come back for its run that waits to be tried again (storage failed under it) adds no run: its next try
    // produces it either way. It takes the room the run kept, counted for the address already (counted once more
    // only when the run gave its room up).
    const returning = kind === 'run' && runId !== undefined && streams.nextTry(runId) !== undefined;
    if (capped && kind === 'run' && !returning && (runsByAddress.get(address) ?? 0) >= options.maxRunsPerAddress) {
      reply.header('Retry-After', String(RETRY_AFTER_S));
      throw new RequestError(
        429,
        'TOO_MANY_RUNS_FROM_ADDRESS',
        `This server produces at most ${options.maxRunsPerAddress} runs at once for one client address; try again once one of yours ends.`,
      );
    }
    const bytes = bodyBytes.get(request) ?? 0;
    const reservation = streams.reserve(bytes, kind, runId);
    if (reservation) return capped && reservation.run && !counted.has(reservation) ? countedFor(address, reservation) : reservation;
    // The room is kept by runs storage failed under (a full disk), and no other run's end frees it: the client is told
    // so, and when they are tried next.
    const held = streams.roomHeldForStorage(bytes, kind);
    if (held !== undefined) {
      reply.header('Retry-After', retryAfter(held));
      throw new RequestError(
        503,
        'STORAGE_UNAVAILABLE',
        'Storage failed under runs this server took, and they keep the room a new run needs until it is back; try again after Retry-After.',
      );
    }
    reply.header('Retry-After', String(RETRY_AFTER_S));
    throw new RequestError(
      503,
      'TOO_MANY_RUNS',
      'This server is producing as many runs, or holding as many request bodies, as it takes at once; try again in a few seconds.',
    );
  }

  /** The runs the requests of each client address hold room for (`maxRunsPerAddress`). */
  const runsByAddress = new Map<string, number>();
  /** The reservations counted in `runsByAddress` (`countedFor`). */
  const counted = new WeakSet<Reservation>();
  /** `reservation`, counted for `address` until its run's room is released. */
  function countedFor(address: string, reservation: Reservation): Reservation {
    runsByAddress.set(address, (runsByAddress.get(address) ?? 0) + 1);
    let held = true;
    const wrapped: Reservation = {
      bytes: reservation.bytes,
      run: reservation.run,
      release() {
        if (held) {
          held = false;
          const left = (runsByAddress.get(address) ?? 1) - 1;
          if (left > 0) runsByAddress.set(address, left);
          else runsByAddress.delete(address);
        }
        reservation.release();
      },
      share: () => reservation.share(),
    };
    counted.add(wrapped);
    return wrapped;
  }

  /**
   * The thread's open interrupts were raised by a run this server did not begin (before a restart, or on another
   * instance) whose end no client was sent, as storage tells (`markRead`). A client reading it on another instance
   * right now is not known here: its interrupts count as unseen.
   */
  async function unreadElsewhere(record: ThreadRecord | undefined): Promise<boolean> {
    const by = record?.raisedBy;
    return by !== undefined && (record?.open.length ?? 0) > 0 && !delivery.knows(by) && !(await storage.wasRead(by));
  }

  /**
   * Refuses to stream a run from `from` when what is left to produce would play too long. A run produced to its end
   * streams from its log: at once, or, while the server that produced it keeps its schedule, by that schedule, which
   * was checked as the run started (the reader's own speed is not used then). Answers whether it was: whether the
   * log holds the run's last event.
   */
  async function checkRest(plan: EventPlan, run: RunRecord, from: number, speed: number): Promise<boolean> {
    const produced = plan.length > 0 && (await holdsEnd(run.runId, plan.length - 1));
    if (!produced) checkPlayback(playbackKey(run), plan, from, speed);
    return produced;
  }

  /**
   * Whether run `runId`'s log holds its last event (`last`), as a stream of it begun at once (no await between) finds
   * it. The log of a run being produced here is short only while it is: one whose producer ended while the log was
   * read is read again, so that a run made meanwhile is not taken for a log that lost its tail (made again, and read
   * at once rather than at its pace). One being produced here still is followed whatever the log lacks (`produces`).
   */
  async function holdsEnd(runId: string, last: number): Promise<boolean> {
    for (;;) {
      const producing = !streams.produces(runId, { readFrom: 0 });
      const held = (await storage.events(runId, last, 1)).length > 0;
      if (held || !producing || !streams.produces(runId, { readFrom: 0 })) return held;
    }
  }

  /** Produces to their end the runs storage holds as begun and never produced (a process killed while it produced them). */
  async function finishUnfinished(): Promise<void> {
    for (const run of await storage.unfinished()) {
      const scenario = findScenario(run.scenarioId);
      if (scenario) void streams.finish(scenario, run);
      else fastify.log.warn({ runId: run.runId, scenarioId: run.scenarioId }, 'an unfinished run of a scenario this server does not have');
    }
  }

  return {
    fastify,
    endStreams: streams.endStreams,
    settled: streams.settled,
    oldestProducing: streams.oldestProducing,
    finishUnfinished,
    inUse: (runId) => readers.has(runId) || requests.has(runId) || !streams.produces(runId, { readFrom: 0 }),
    ownerOf: (runId) => beginning.get(runId),
  };
}
