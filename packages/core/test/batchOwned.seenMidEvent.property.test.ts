/**
 * A thread anyone was handed keeps its contents, however a frame's batch goes
 * on after it. Random sessions of replies, tool calls and their results,
 * reasoning spans, steps, activities and shared-state deltas (some of which
 * fail) arrive in one frame; at random events a listener (`onEvent` or
 * `onDiagnostic`) publishes the thread (an action refused at once), reads the
 * snapshot, or reads the thread back with `stateAt`. Each thread so seen is
 * kept with a deep copy, and compared with it at the end.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { createRunController, loadEngine, type ThreadState } from '../src/index.js';
import { finished, microScheduler, scripted, started } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

/** A deep, plain copy of a value: persistent maps as their values, a large object through its keys. */
function plain(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 40) return value;
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  if (typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function')
    return [...(value as Iterable<unknown>)].map((v) => plain(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = plain((value as Record<string, unknown>)[key], depth + 1);
  // The messages of a thread in a batch hold their ids behind a getter.
  if ('byId' in value && 'ids' in value) out.ids = plain((value as { ids: unknown }).ids, depth + 1);
  return out;
}

type Step =
  | { kind: 'reply'; reasoning: boolean }
  | { kind: 'call'; parent: number }
  | { kind: 'result'; call: number }
  | { kind: 'span'; id: number; open: boolean }
  | { kind: 'step'; name: number; open: boolean }
  | { kind: 'activity'; add: boolean }
  | { kind: 'state'; add: boolean; fails: boolean }
  | { kind: 'bad' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('reply' as const), reasoning: fc.boolean() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('call' as const), parent: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('result' as const), call: fc.nat(20) }) },
  fc.record({ kind: fc.constant('span' as const), id: fc.nat(3), open: fc.boolean() }),
  fc.record({ kind: fc.constant('step' as const), name: fc.nat(3), open: fc.boolean() }),
  fc.record({ kind: fc.constant('activity' as const), add: fc.boolean() }),
  fc.record({ kind: fc.constant('state' as const), add: fc.boolean(), fails: fc.boolean() }),
  fc.constant<Step>({ kind: 'bad' }),
);

function events(steps: readonly Step[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [
    { type: 'STATE_SNAPSHOT', snapshot: { list: [], nested: { list: [] } } },
    { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'log', content: { lines: [] } },
  ];
  let replies = 0;
  let calls = 0;
  let results = 0;
  let n = 0;
  for (const s of steps) {
    n++;
    if (s.kind === 'reply') {
      const id = `m${replies++}`;
      const role = s.reasoning ? 'reasoning' : 'assistant';
      const prefix = s.reasoning ? 'REASONING_MESSAGE' : 'TEXT_MESSAGE';
      out.push({ type: `${prefix}_START`, messageId: id, role });
      out.push({ type: `${prefix}_CONTENT`, messageId: id, delta: 'x' });
      out.push({ type: `${prefix}_END`, messageId: id });
    } else if (s.kind === 'call') {
      const parent = `m${s.parent < replies ? s.parent : replies++}`;
      const id = `c${calls++}`;
      out.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup', parentMessageId: parent });
      out.push({ type: 'TOOL_CALL_END', toolCallId: id });
    } else if (s.kind === 'result') {
      const call = calls ? `c${s.call % calls}` : 'none';
      out.push({ type: 'TOOL_CALL_RESULT', toolCallId: call, messageId: `r${results++}`, content: 'ok' });
    } else if (s.kind === 'span') out.push({ type: s.open ? 'REASONING_START' : 'REASONING_END', messageId: `s${s.id}` });
    else if (s.kind === 'step') out.push({ type: s.open ? 'STEP_STARTED' : 'STEP_FINISHED', stepName: `step ${s.name}` });
    else if (s.kind === 'activity')
      out.push({
        type: 'ACTIVITY_DELTA',
        messageId: 'act',
        activityType: 'log',
        patch: s.add ? [{ op: 'add', path: '/lines/-', value: n }] : [{ op: 'remove', path: '/lines/0' }],
      });
    else if (s.kind === 'state') {
      const delta: Record<string, unknown>[] = s.add
        ? [
            { op: 'add', path: '/list/-', value: n },
            { op: 'add', path: '/nested/list/-', value: [n] },
          ]
        : [{ op: 'remove', path: '/list/0' }];
      // A patch that fails after it wrote: what it wrote is taken back.
      if (s.fails) delta.push({ op: 'remove', path: '/missing/0' });
      out.push({ type: 'STATE_DELTA', delta });
    } else out.push({ type: 'TOOL_CALL_END', toolCallId: 'nowhere' });
  }
  return out;
}

type Look = 'publish' | 'snapshot' | 'stateAt';

it('every thread handed out in the middle of a frame keeps its contents', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(stepArb, { maxLength: 40 }),
      // What the listener does at each call, in order: mostly nothing.
      fc.array(fc.option(fc.constantFrom<Look>('publish', 'snapshot', 'stateAt'), { freq: 4 }), { maxLength: 200 }),
      fc.boolean(),
      async (steps, looks, onDiagnostic) => {
        const sent = events(steps);
        const seen: { thread: ThreadState; copy: unknown }[] = [];
        const keep = (thread: ThreadState) => seen.push({ thread, copy: plain(thread) });
        const { source } = scripted((_n, input, emit) => {
          emit(started(input));
          for (const e of sent) emit(e);
          emit(finished(input));
        });
        let told = 0;
        let refusals = 0;
        const look = () => {
          const what = looks[told++];
          // Refused at once, and published: each refusal another than the one before (the same again publishes nothing).
          if (what === 'publish') void (refusals++ % 2 ? controller.retry() : controller.run('again'));
          else if (what === 'snapshot') keep(controller.getSnapshot().thread);
          else if (what === 'stateAt') keep(controller.stateAt(controller.log.entries.length - 1));
        };
        const controller = createRunController({
          source,
          scheduler: microScheduler,
          onEvent: look,
          ...(onDiagnostic ? { onDiagnostic: look } : {}),
        });
        controller.subscribe(() => keep(controller.getSnapshot().thread));
        await controller.run('hi');
        keep(controller.getSnapshot().thread);
        for (const { thread, copy } of seen) expect(plain(thread)).toEqual(copy);
        // The thread the frame ends with is the one the log replays to.
        expect(plain(controller.stateAt(controller.log.entries.length - 1))).toEqual(plain(controller.getSnapshot().thread));
      },
    ),
    {
      numRuns: 400,
      // A reply's third call: the thread published as it starts holds the first two, and keeps only those.
      examples: [
        [
          [{ kind: 'reply', reasoning: false }, ...[0, 0, 0].map((parent): Step => ({ kind: 'call', parent }))],
          [...Array.from({ length: 10 }, () => null), 'publish'],
          false,
        ],
      ],
    },
  );
});
