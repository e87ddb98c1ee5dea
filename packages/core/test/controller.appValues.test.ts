/**
 * What a plain-JavaScript app can hand the controller that its types do not
 * admit, or that JSON cannot write: a BigInt, a cycle, a getter or `toJSON`
 * that throws, a thrown value with no text (a null-prototype object, as some
 * validation libraries throw), a request that is no request. Each action
 * answers a refusal that says why, never rejects or throws, and loses
 * nothing of the thread.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRunController, loadEngine, parseSession, serializeSession } from '../src/index.js';
import { expectReplayed, finished, microScheduler, picksOnce, scripted, started, tick } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

// biome-ignore lint/suspicious/noExplicitAny: what an untyped app hands the controller.
type Untyped = any;

const make = () => {
  const { source, inputs } = scripted((_n, input, emit) => {
    emit(started(input));
    emit(finished(input));
  });
  const c = createRunController<Untyped>({ source, scheduler: microScheduler, initialState: { a: 1 } });
  return { c, inputs };
};

/** The action's outcome, or what it rejected or threw with. */
const outcome = (action: () => Promise<unknown>): Promise<unknown> => {
  try {
    return action().then(
      (v) => v,
      (e) => ({ rejected: String(e) }),
    );
  } catch (e) {
    return Promise.resolve({ threw: String(e) });
  }
};

const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);
process.on('unhandledRejection', onRejection);
afterEach(async () => {
  await tick();
  expect(rejections.splice(0)).toEqual([]);
});

describe('a document JSON cannot write is refused EDIT_REFUSED, saying why', () => {
  it('setState with a BigInt, as an edit that puts one is', async () => {
    const { c } = make();
    expect(
      await outcome(() =>
        c.updateSharedState((d: Untyped) => {
          d.n = 1n;
        }),
      ),
    ).toMatchObject({ ok: false, code: 'EDIT_REFUSED' });
    const r = await outcome(() => c.setState({ n: 1n }));
    expect(r).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringMatching(/BigInt/) });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ a: 1 });
    // The refusal stands until an action succeeds: an edit that applies, or a setState, ends it.
    expect(c.getSnapshot().refusal?.code).toBe('EDIT_REFUSED');
    expect(
      await c.updateSharedState((d: Untyped) => {
        d.a = 2;
      }),
    ).toMatchObject({ ok: true });
    expect(c.getSnapshot().refusal).toBeUndefined();
    await c.setState({ n: 1n } as Untyped);
    expect((await c.setState({ a: 3 })).ok).toBe(true);
    expect(c.getSnapshot().refusal).toBeUndefined();
  });

  it('setState with a cycle, named as a cycle (not as a document nested too deep), with or without a Date in it', async () => {
    const { c } = make();
    const plain: Record<string, unknown> = { a: 1 };
    plain.self = plain;
    const dated: Record<string, unknown> = { when: new Date(0) };
    dated.self = dated;
    for (const doc of [plain, dated])
      expect(await outcome(() => c.setState(doc))).toMatchObject({
        ok: false,
        code: 'EDIT_REFUSED',
        message: expect.stringMatching(/circular/i),
      });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ a: 1 });
  });

  it('setState with a getter that throws, saying what it threw', async () => {
    const { c } = make();
    const doc = {
      get total() {
        throw new Error('total not loaded');
      },
    };
    expect(await outcome(() => c.setState(doc))).toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringContaining('total not loaded'),
    });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ a: 1 });
  });

  it('an edit that puts a value whose getter or toJSON throws, saying what it threw', async () => {
    const { c } = make();
    const getter = {
      get y() {
        throw new Error('boom');
      },
    };
    const toJSON = {
      toJSON() {
        throw new Error('no JSON for you');
      },
    };
    expect(
      await outcome(() =>
        c.updateSharedState((d: Untyped) => {
          d.x = getter;
        }),
      ),
    ).toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringContaining('boom'),
    });
    expect(
      await outcome(() =>
        c.updateSharedState((d: Untyped) => {
          d.x = toJSON;
        }),
      ),
    ).toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringContaining('no JSON for you'),
    });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ a: 1 });
    expect(c.log.entries.filter((e) => e.type === 'state_edit')).toEqual([]);
  });

  it('a recipe that throws a value with no text (a null-prototype object) is refused, with what the value holds', async () => {
    const { c } = make();
    const r = await outcome(() =>
      c.updateSharedState(() => {
        throw Object.assign(Object.create(null), { reason: 'validation failed' });
      }),
    );
    expect(r).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringContaining('validation failed') });
  });
});

describe('a frontend tool that throws a value with no text', () => {
  it('fails the call with what the value holds, frees the controller and sends the failure to the agent', async () => {
    const { source, inputs } = scripted(picksOnce);
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        pick: {
          description: 'validates an order',
          handler: () => {
            throw Object.assign(Object.create(null), { issues: ['orderId is required'] });
          },
        },
      },
    });
    await c.run('refund A-1001');
    for (let i = 0; i < 10 && inputs.length < 2; i++) await tick();
    const call = c.getSnapshot().thread.toolCalls.get('c1');
    expect(call?.status).toBe('failed');
    expect(JSON.stringify(call)).toContain('orderId is required');
    expect(c.getSnapshot().inFlight).toBeUndefined();
    // autoContinue: the failure goes back to the agent in a follow-up run.
    expect(inputs).toHaveLength(2);
  });
});

describe('a frontend tool that changes the arguments it was handed', () => {
  it("changes its own copy: the thread's call, its replay and the next request keep the agent's arguments", async () => {
    // The call as the agent started it, with metadata of its own.
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0)
        for (const e of [
          {
            type: 'TOOL_CALL_START',
            toolCallId: 'c1',
            toolCallName: 'pick',
            parentMessageId: 'a-c1',
            metadata: { nested: { tag: 'agent' } },
          },
          { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001"}' },
          { type: 'TOOL_CALL_END', toolCallId: 'c1' },
        ])
          emit(e);
      emit(finished(input));
    });
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        pick: {
          description: 'normalizes an order id',
          handler: (args: Untyped, call: Untyped) => {
            args.orderId = 'HACKED';
            call.args.extra = true;
            call.name = 'renamed';
            call.metadata = { ...call.metadata, changed: true };
            if (call.metadata?.nested) call.metadata.nested.tag = 'HACKED';
            return 'ok';
          },
        },
      },
    });
    await c.run('refund A-1001');
    for (let i = 0; i < 10 && inputs.length < 2; i++) await tick();
    const call = c.getSnapshot().thread.toolCalls.get('c1');
    expect(call).toMatchObject({ name: 'pick', args: { orderId: 'A-1001' }, status: 'succeeded' });
    expect(call?.args).not.toHaveProperty('extra');
    expect(call?.metadata).toEqual({ nested: { tag: 'agent' } });
    expectReplayed(c);
    const asked = inputs[1]?.messages.flatMap((m) => ('toolCalls' in m ? (m.toolCalls ?? []) : []));
    expect(asked?.[0]?.function).toEqual({ name: 'pick', arguments: '{"orderId":"A-1001"}' });
  });
});

describe('a request that is no request is refused, never thrown, and nothing is sent', () => {
  it.each([
    ['null', null],
    ['a number', 42],
    ['true', true],
    ['an array', [{ type: 'text', text: 'hi' }]],
  ])('run(%s) is refused MESSAGE_INVALID', async (_name, request) => {
    const { c, inputs } = make();
    expect(await outcome(() => c.run(request as Untyped))).toMatchObject({ ok: false, code: 'MESSAGE_INVALID' });
    await tick();
    expect(inputs).toHaveLength(0);
    expect(c.getSnapshot().thread.messages.ids).toEqual([]);
  });

  it.each([
    ['empty text', ''],
    ['blank text', ' \n\t '],
    ['a request whose message is empty text', { message: '' }],
    ['a message whose content is blank', { message: { id: 'u-blank', role: 'user', content: '  ' } }],
    // Characters no reader sees, which `trim` keeps: a zero-width space, joiners, a word joiner, a byte order mark.
    ['invisible text', '\u200b\u200c\u200d \u2060\ufeff\u3000'],
    ['a message whose content is invisible', { message: { id: 'u-invisible', role: 'user', content: '\u200b' } }],
    // Content parts with nothing in them: no part, or text parts only, each blank.
    ['no content parts', { message: [] }],
    [
      'blank text parts',
      {
        message: [
          { type: 'text', text: ' ' },
          { type: 'text', text: '\u200b\n' },
        ],
      },
    ],
    ['a message of no parts', { message: { id: 'u-no-parts', role: 'user', content: [] } }],
    ['a message of a blank text part', { message: { id: 'u-blank-part', role: 'user', content: [{ type: 'text', text: '' }] } }],
    ['a message with no content', { message: { id: 'u-no-content', role: 'user' } }],
  ])('run(%s) is refused MESSAGE_INVALID as empty: no blank message goes to the agent', async (_name, request) => {
    const { c, inputs } = make();
    expect(await outcome(() => c.run(request as Untyped))).toMatchObject({
      ok: false,
      code: 'MESSAGE_INVALID',
      message: expect.stringMatching(/^The message is empty/),
    });
    await tick();
    expect(inputs).toHaveLength(0);
    expect(c.getSnapshot().thread.messages.ids).toEqual([]);
    // A run with no message at all (the agent goes on from the thread) is no empty message.
    expect(await c.run()).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(1);
  });

  it('content parts with something in them go: an image beside a blank caption, text beside a blank part', async () => {
    const image = { type: 'image', source: { type: 'url', value: 'https://example.com/teapot.png' } };
    for (const message of [
      [{ type: 'text', text: ' ' }, image],
      [image],
      [
        { type: 'text', text: '' },
        { type: 'text', text: '退款' },
      ],
    ]) {
      const { c, inputs } = make();
      expect(await c.run({ message: message as Untyped })).toMatchObject({ ok: true });
      expect(inputs[0]?.messages.at(-1)).toMatchObject({ role: 'user', content: message });
    }
  });

  it('resume(undefined), resume({}), resume([null]) and an answer naming no interrupt are refused RESUME_REFUSED, saying what was given, and the interrupt stays open', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input, n === 0 ? { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } } : {}));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('refund');
    for (const [answers, said] of [
      [undefined, /: it was given nothing\. /],
      [{}, /: it was given an object\. /],
      [[null], /: answer 1 is null\. /],
      [['yes'], /: answer 1 is a string\. /],
      [[[]], /: answer 1 is a list\. /],
      [[{}], /: answer 1 names no interrupt \(its interruptId is no string\)\. /],
      [[{ interruptId: 'i1', status: 'resolved', payload: true }, { status: 'resolved' }], /: answer 2 names no interrupt/],
    ] as const)
      expect(await outcome(() => c.resume(answers as Untyped))).toMatchObject({
        ok: false,
        code: 'RESUME_REFUSED',
        message: expect.stringMatching(said),
      });
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect(inputs).toHaveLength(1);
    // The right answer still goes.
    expect(await c.resume([{ interruptId: 'i1', status: 'resolved', payload: true }])).toMatchObject({ ok: true });
  });
});

describe('a listener that acts on each change', () => {
  it('asking again for what is refused the same way is not told again: no loop, the run goes on', async () => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    let calls = 0;
    const errors: unknown[] = [];
    const report = (globalThis as { reportError?: unknown }).reportError;
    (globalThis as { reportError?: unknown }).reportError = (e: unknown) => errors.push(e);
    try {
      // A careless app: on every change, while a run is in flight, it asks for another.
      c.subscribe(() => {
        if (c.getSnapshot().inFlight && calls < 10_000) {
          calls++;
          void c.run('again');
        }
      });
      expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    } finally {
      (globalThis as { reportError?: unknown }).reportError = report;
    }
    // Each refusal is RUN_IN_PROGRESS, told once; before, each one published a change, which asked again, to a stack overflow.
    expect(errors).toEqual([]);
    expect(calls).toBeLessThan(50);
    expect(inputs).toHaveLength(1);
    expect(c.getSnapshot().refusal).toMatchObject({ code: 'RUN_IN_PROGRESS' });
  });
});

describe('an onEvent listener that changes the event it is told of', () => {
  it('changes its own copy: neither the thread, its replay nor the log', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Refunded.' });
      emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
      emit({ type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', status: 'refunded' } } });
      emit(finished(input));
    });
    const c = createRunController<Untyped>({
      source,
      scheduler: microScheduler,
      onEvent: (event: Untyped) => {
        if (event.type === 'TEXT_MESSAGE_CONTENT') event.delta = 'rewritten by the app';
        if (event.type === 'STATE_SNAPSHOT') event.snapshot.order.status = 'open';
      },
    });
    await c.run('Refund order A-1001');
    const { thread } = c.getSnapshot();
    expect(thread.messages.byId.get('m1')?.content).toBe('Refunded.');
    expect(thread.sharedState.document).toEqual({ order: { id: 'A-1001', status: 'refunded' } });
    const logged = c.log.entries.flatMap((e) => (e.type === 'event' ? [e.event as Untyped] : []));
    expect(logged.find((e) => e.type === 'TEXT_MESSAGE_CONTENT')).toMatchObject({ delta: 'Refunded.' });
    expect(logged.find((e) => e.type === 'STATE_SNAPSHOT')).toMatchObject({ snapshot: { order: { status: 'refunded' } } });
    expectReplayed(c);
  });

  it('hears an event no copy can be made of (a function an in-process agent put in it) as it is, rather than not at all', async () => {
    const format = () => 'A-1001';
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'CUSTOM', name: 'order', value: { format } });
      emit(finished(input));
    });
    const heard: unknown[] = [];
    const c = createRunController<Untyped>({ source, scheduler: microScheduler, onEvent: (event: Untyped) => heard.push(event) });
    await c.run('Refund order A-1001');
    expect(heard.map((e) => (e as { type: string }).type)).toEqual(['RUN_STARTED', 'CUSTOM', 'RUN_FINISHED']);
    expect(heard[1]).toMatchObject({ value: { format } });
  });
});

describe("an in-process agent's event that throws as it is read (a getter of its own)", () => {
  /** A run whose third event throws when its `delta` (`field`) is read, then goes on. */
  const make = (field: 'delta' | 'snapshotValue') => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit(
        field === 'delta'
          ? Object.defineProperty({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1' }, 'delta', {
              enumerable: true,
              get() {
                throw new Error('the draft was revoked');
              },
            })
          : {
              type: 'STATE_SNAPSHOT',
              snapshot: Object.defineProperty({}, 'cart', {
                enumerable: true,
                get() {
                  throw new Error('the draft was revoked');
                },
              }),
            },
      );
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Refunded.' });
      emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
      emit(finished(input));
    });
    return createRunController<Untyped>({ source, scheduler: microScheduler });
  };

  it.each(['delta', 'snapshotValue'] as const)(
    'is named and skipped, the run goes on, and the log still saves, replays and travels (%s)',
    async (field) => {
      const c = make(field);
      expect(await c.run('Refund order 42')).toEqual({ ok: true, status: 'success' });
      const { thread } = c.getSnapshot();
      expect(thread.messages.byId.get('m1')?.content).toBe('Refunded.');
      const named = thread.diagnostics.find((d) => d.index === 2);
      expect(named).toMatchObject({ code: 'UNREADABLE_EVENT', severity: 'error' });
      expect(named?.message).toContain('the draft was revoked');
      expectReplayed(c);
      expect(() => c.stateAt(c.log.entries.length - 1)).not.toThrow();
      const text = serializeSession(c.log.entries);
      const { entries, errors } = parseSession(text);
      expect(errors).toEqual([]);
      const again = createRunController({ source: { run: () => (async function* () {})() }, log: entries }).getSnapshot().thread;
      expect(again.messages.byId.get('m1')?.content).toBe('Refunded.');
      expect(again.run.status).toBe('success');
      // The file holds a text in its place, which the replay refuses at the same index.
      expect(again.diagnostics.filter((d) => d.index === 2).map((d) => d.code)).toEqual(['NOT_AN_OBJECT']);
      expect(entries.find((e) => e.type === 'event' && e.index === 2)).toMatchObject({
        event: expect.stringContaining('could not be read: the draft was revoked'),
      });
    },
  );
});
