/**
 * The state never shares a mutable object with its caller: what an event or
 * a client transition brings in is copied on entry, so a caller that changes
 * an event after pushing it (or a message, payload or document it handed
 * over) cannot change the state.
 */
import { describe, expect, it } from 'vitest';
import { createEventPipeline, createThreadState, reduceThread } from '../src/engine.js';
import type { ThreadState } from '../src/index.js';
import { addToolResult, appendMessages, recordResume, setSharedDocument } from '../src/internal.js';

/** Everything the state holds, as plain data (the persistent maps listed), to compare before and after. */
function plain(s: ThreadState): unknown {
  return structuredClone({
    ...s,
    messages: { ...s.messages, byId: s.messages.ids.map((id) => s.messages.byId.get(id)) },
    toolCalls: [...s.toolCalls],
  });
}

/** Changes every object and array inside `value`, at every depth. */
function vandalise(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) vandalise(item);
    value.push('vandalised');
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    vandalise(record[key]);
    if (typeof record[key] !== 'object' || record[key] === null) record[key] = 'vandalised';
  }
  record.vandalised = true;
}

const meta = () => ({ trace: { id: 't1', spans: [1, 2] } });

/** One event of every kind that carries objects, each with metadata. */
function everyEventWithObjects(): Record<string, unknown>[] {
  const parts = () => [
    { type: 'text', text: 'look' },
    { type: 'image', source: { type: 'url', value: 'https://x/y.png' } },
  ];
  return [
    {
      type: 'RUN_STARTED',
      threadId: 't',
      runId: 'r1',
      metadata: meta(),
      input: {
        threadId: 't',
        runId: 'r1',
        state: { cart: [{ sku: 'a' }] },
        messages: [{ id: 'u0', role: 'user', content: parts(), metadata: meta() }],
        tools: [{ name: 'lookup', description: 'd', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
        context: [{ description: 'user', value: 'ann' }],
        forwardedProps: { flags: { beta: true } },
      },
    },
    { type: 'STEP_STARTED', stepName: 'plan', metadata: meta() },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: meta() },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi', metadata: meta() },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: meta() },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'x', metadata: meta() },
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm1', metadata: meta() },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}', metadata: meta() },
    { type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: meta() },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr1', toolCallId: 'c1', content: parts(), metadata: meta() },
    { type: 'TOOL_CALL_CHUNK', toolCallId: 'c2', toolCallName: 'refund', delta: '{"a":1}', metadata: meta() },
    { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1', lines: [{ n: 1 }] } }, metadata: meta() },
    { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/extra', value: { deep: [{ x: 1 }] } }], metadata: meta() },
    {
      type: 'MESSAGES_SNAPSHOT',
      messages: [
        { id: 'u0', role: 'user', content: parts(), metadata: meta() },
        {
          id: 'm1',
          role: 'assistant',
          content: 'Hi',
          toolCalls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' }, metadata: meta() }],
        },
        { id: 'tr1', role: 'tool', toolCallId: 'c1', content: parts() },
      ],
      metadata: meta(),
    },
    { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'PLAN', content: { steps: [{ s: 1 }] }, metadata: meta() },
    {
      type: 'ACTIVITY_DELTA',
      messageId: 'act',
      activityType: 'PLAN',
      patch: [{ op: 'add', path: '/steps/-', value: { s: 2 } }],
      metadata: meta(),
    },
    { type: 'REASONING_START', messageId: 'rs', metadata: meta() },
    { type: 'REASONING_MESSAGE_START', messageId: 'rm', role: 'reasoning', metadata: meta() },
    { type: 'REASONING_MESSAGE_END', messageId: 'rm', metadata: meta() },
    { type: 'REASONING_END', messageId: 'rs', metadata: meta() },
    { type: 'SUBAGENT_STARTED', subagentRunId: 'sa', name: 'r', metadata: meta() },
    { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa', result: { found: [{ n: 1 }] }, metadata: meta() },
    { type: 'CUSTOM', name: 'progress', value: { done: [1] }, metadata: meta() },
    { type: 'RAW', event: { vendor: { x: [1] } }, metadata: meta() },
    { type: 'FUTURE_EVENT', payload: { x: [1] } },
    { type: 'STEP_FINISHED', stepName: 'plan', metadata: meta() },
    {
      type: 'RUN_FINISHED',
      threadId: 't',
      runId: 'r1',
      result: { answer: { n: 42 } },
      usage: [{ model: 'm', totalTokens: 3 }],
      metadata: meta(),
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'i1',
            reason: 'tool_call',
            toolCallId: 'c1',
            responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
            metadata: meta(),
          },
        ],
      },
    },
    {
      type: 'RUN_STARTED',
      threadId: 't',
      runId: 'r2',
      input: {
        threadId: 't',
        runId: 'r2',
        messages: [],
        tools: [],
        context: [],
        resume: [{ interruptId: 'i1', status: 'resolved', payload: { approved: false, why: { text: 'no' } } }],
      },
    },
    { type: 'RUN_ERROR', message: 'x', usage: [{ totalTokens: 1 }], metadata: meta() },
  ];
}

describe('the state owns what it holds', () => {
  it('an event changed after push does not change the state, at any depth, for every kind of event', () => {
    const events = everyEventWithObjects();
    const p = createEventPipeline(createThreadState(), { now: () => 1 });
    for (const e of events) p.push(e);
    const before = plain(p.state);
    for (const e of events) vandalise(e);
    expect(plain(p.state)).toEqual(before);
    // The state did take each event in: the comparison is not of an empty state.
    expect(p.state.messages.ids.length).toBeGreaterThan(4);
    expect(p.state.toolCalls.get('c1')?.metadata).toEqual(meta());
  });

  it('reduceThread, called directly, copies too', () => {
    const event = { type: 'STATE_SNAPSHOT', snapshot: { a: { b: [1] } }, metadata: meta() };
    const s = reduceThread(createThreadState(), event as never);
    vandalise(event);
    expect(s.sharedState.document).toEqual({ a: { b: [1] } });
    expect(s.sharedState.metadata).toEqual(meta());
  });

  it('what a client hands to its transitions is copied too', () => {
    const initial = { cart: [{ sku: 'a' }] };
    let s = createThreadState({ threadId: 't', state: initial });
    const user = [{ id: 'u', role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }], metadata: meta() }];
    s = appendMessages(s, user);
    const p = createEventPipeline(s);
    for (const e of everyEventWithObjects().slice(0, 9)) p.push(e);
    s = p.state;
    const content = [{ type: 'text' as const, text: 'result' }];
    s = addToolResult(s, { toolCallId: 'c1', content });
    const edited = { cart: [{ sku: 'b', extras: { gift: true } }] };
    s = setSharedDocument(s, edited);
    const payload = { approved: true, note: { text: 'ok' } };
    s = recordResume(
      { ...s, interrupts: [{ id: 'i9', reason: 'confirmation', toolCallId: 'c1' }] },
      [{ interruptId: 'i9', status: 'resolved', payload }],
      'r9',
    );
    const before = plain(s);
    for (const v of [initial, user, content, edited, payload]) vandalise(v);
    expect(plain(s)).toEqual(before);
  });

  it('copies a large snapshot once, on entry, and later deltas keep sharing what they do not touch', () => {
    const big: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) big[`k${i}`] = { n: i };
    const p = createEventPipeline(createThreadState(), { now: () => 1 });
    p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    const first = p.push({ type: 'STATE_SNAPSHOT', snapshot: big }).sharedState.document as Record<string, unknown>;
    expect(first).not.toBe(big);
    expect(first.k1).not.toBe(big.k1);
    const next = p.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/k0/n', value: -1 }] }).sharedState.document as Record<
      string,
      unknown
    >;
    expect(next.k1).toBe(first.k1);
    expect(next.k0).toEqual({ n: -1 });
  });

  it('a client edit keeps sharing the subtrees it did not replace', () => {
    let s = reduceThread(createThreadState(), { type: 'STATE_SNAPSHOT', snapshot: { a: { x: 1 }, b: { y: 2 } } });
    const doc = s.sharedState.document as { a: unknown; b: unknown };
    s = setSharedDocument(s, { ...doc, b: { y: 3 } });
    expect((s.sharedState.document as { a: unknown }).a).toBe(doc.a);
  });
});

describe('an event that throws as it is read', () => {
  const getter = () =>
    Object.defineProperty({ type: 'CUSTOM', name: 'n' }, 'value', {
      enumerable: true,
      get() {
        throw new Error('revoked');
      },
    });

  it('is named UNREADABLE_EVENT at its index, and the next event applies', () => {
    const pipeline = createEventPipeline();
    pipeline.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    pipeline.push(getter());
    const state = pipeline.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
    expect(state.diagnostics.map((d) => [d.index, d.code])).toEqual([[1, 'UNREADABLE_EVENT']]);
    expect(state.run.status).toBe('success');
  });

  it("leaves a listener's own throw to its caller: onEvent and onDiagnostic are not the event", () => {
    const onEvent = () => {
      throw new Error('onEvent threw');
    };
    expect(() => createEventPipeline(undefined, { onEvent }).push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' })).toThrow(
      'onEvent threw',
    );
    const onDiagnostic = () => {
      throw new Error('onDiagnostic threw');
    };
    expect(() => createEventPipeline(undefined, { onDiagnostic }).push({ type: 'NOPE' })).toThrow('onDiagnostic threw');
    // Told of the unreadable event itself, it throws to the caller too.
    expect(() => createEventPipeline(undefined, { onDiagnostic }).push(getter())).toThrow('onDiagnostic threw');
  });
});

describe("a listener's throw after it pushed an event itself (a re-entrant push)", () => {
  it('is still its own, not an event that could not be read', () => {
    let pipeline: ReturnType<typeof createEventPipeline> | undefined;
    let nested = false;
    const onEvent = () => {
      if (nested) return;
      nested = true;
      pipeline?.push({ type: 'CUSTOM', name: 'echo', value: 1 });
      throw new Error('onEvent threw after pushing');
    };
    pipeline = createEventPipeline(undefined, { onEvent });
    expect(() => pipeline?.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' })).toThrow('onEvent threw after pushing');
    expect(pipeline.state.diagnostics.map((d) => d.code)).not.toContain('UNREADABLE_EVENT');
  });
});
