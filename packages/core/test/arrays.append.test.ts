/**
 * A list that grows by one item per event: an agent that appends to an array
 * of the shared state (`add /items/-`) or of an activity's content, calls
 * thousands of tools from one message, or opens thousands of steps. Applied in
 * a batch (a replay, a recording read, a frame of many events), each append
 * costs O(1): the batch writes in place into the arrays it copied itself and
 * no one has seen yet. Each append copying the whole list was quadratic, and
 * past about 11,000 items each copy is a large object of its own: 20,000
 * appends took 8 s.
 *
 * What a batch writes in place is what it made: whatever was seen before it
 * (a published thread, a recording's checkpoint, a failing patch's document)
 * keeps its contents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createThreadMachine } from '../src/controller/machine.js';
import { createEventPipeline, replayEvents, replaySession } from '../src/engine.js';
import {
  createRecording,
  createRunController,
  loadEngine,
  type SessionEntry,
  type SessionEntryBody,
  type ThreadState,
} from '../src/index.js';
import { validStream } from './support/arbitraries.js';
import { mostlyValidStream } from './support/arbitrariesInvalid.js';
import { microScheduler, scripted } from './support/controllerHarness.js';
import { view } from './support/sessions.js';

const N = 20_000;
/** Tens of milliseconds when each append is O(1); 8 s when each copies the list. */
const BUDGET_MS = 1_500;
const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const items = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => ({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/-', value: { n: from + k } }] }));
const withItems = [started, { type: 'STATE_SNAPSHOT', snapshot: { title: '清单', items: [] } }];

/** The fastest of up to three attempts (a busy machine slows one; a quadratic one is over the budget every time). */
function timed<T>(work: () => T): { result: T; ms: number } {
  let best: { result: T; ms: number } | undefined;
  for (let attempt = 0; attempt < 3 && !(best && best.ms < BUDGET_MS); attempt++) {
    const began = performance.now();
    const result = work();
    const ms = performance.now() - began;
    if (!best || ms < best.ms) best = { result, ms };
  }
  return best as NonNullable<typeof best>;
}

const listOf = (thread: ThreadState) => (thread.sharedState.document as { items: { n: number }[] }).items;
const asEntry = (event: object, index: number): SessionEntry => ({ type: 'event', event, index, at: index });
const entriesOf = (events: readonly object[]): SessionEntry[] => [
  { type: 'stream_start', kind: 'run', runId: 'r', at: 0 },
  ...events.map(asEntry),
];

describe('lists that grow by an item per event, in linear time', () => {
  it.each([
    ['to an array of the shared state', () => [...withItems, ...items(0, N)], (s: ThreadState) => listOf(s)],
    [
      "to an array of an activity's content",
      () => [
        started,
        { type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'log', content: { lines: [] } },
        ...Array.from({ length: N }, (_, i) => ({
          type: 'ACTIVITY_DELTA',
          messageId: 'a',
          activityType: 'log',
          patch: [{ op: 'add', path: '/lines/-', value: `第 ${i} 行` }],
        })),
      ],
      (s: ThreadState) => (s.messages.byId.get('a')?.content as { lines: string[] } | undefined)?.lines ?? [],
    ],
    [
      'to the tool calls of one message',
      () => [
        started,
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        ...Array.from({ length: N }, (_, i) => ({
          type: 'TOOL_CALL_START',
          toolCallId: `c${i}`,
          toolCallName: 'lookup',
          parentMessageId: 'm',
        })),
      ],
      (s: ThreadState) => s.messages.byId.get('m')?.toolCallIds ?? [],
    ],
    [
      'to the open steps of a run',
      () => [started, ...Array.from({ length: N }, (_, i) => ({ type: 'STEP_STARTED', stepName: `step ${i}` }))],
      (s: ThreadState) => s.run.steps,
    ],
    [
      'to an array of the shared state, by patches of two operations',
      () => [
        started,
        { type: 'STATE_SNAPSHOT', snapshot: { items: [], count: 0 } },
        ...Array.from({ length: N }, (_, i) => ({
          type: 'STATE_DELTA',
          delta: [
            { op: 'add', path: '/items/-', value: { n: i } },
            { op: 'replace', path: '/count', value: i + 1 },
          ],
        })),
      ],
      (s: ThreadState) => listOf(s),
    ],
    [
      'to the messages of one reasoning span',
      () => [
        started,
        { type: 'REASONING_START', messageId: 'span' },
        ...Array.from({ length: N }, (_, i) => [
          { type: 'REASONING_MESSAGE_START', messageId: `r${i}`, role: 'reasoning' },
          { type: 'REASONING_MESSAGE_END', messageId: `r${i}` },
        ]).flat(),
      ],
      (s: ThreadState) => s.reasoning.span?.messageIds ?? [],
    ],
    [
      'to the open reasoning spans',
      () => [started, ...Array.from({ length: N }, (_, i) => ({ type: 'REASONING_START', messageId: `span ${i}` }))],
      (s: ThreadState) => Object.values(s.reasoning).filter((span) => span.status === 'open'),
    ],
  ])('%s, replayed', (_name, events, list) => {
    const all = events();
    const { result, ms } = timed(() => replayEvents(all as never, undefined, { open: true }));
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(list(result)).toHaveLength(N);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each([
    ['last opened, first finished', (i: number) => N - 1 - i],
    ['first opened, first finished', (i: number) => i],
  ])('20,000 steps opened, then finished (%s), replayed', (_name, order) => {
    const all = [
      started,
      ...Array.from({ length: N }, (_, i) => ({ type: 'STEP_STARTED', stepName: `step ${i}` })),
      ...Array.from({ length: N }, (_, i) => ({ type: 'STEP_FINISHED', stepName: `step ${order(i)}` })),
      // One still open, so that the run's list is seen to be what the events left.
      { type: 'STEP_STARTED', stepName: 'last' },
    ];
    const { result, ms } = timed(() => replayEvents(all as never, undefined, { open: true }));
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(result.run.steps).toEqual(['last']);
  });

  it('through a session log: replaySession and a recording read at its end', async () => {
    await loadEngine();
    const entries = entriesOf([...withItems, ...items(0, N)]);
    const replayed = timed(() => replaySession(entries));
    expect(replayed.ms).toBeLessThan(BUDGET_MS);
    expect(listOf(replayed.result)).toHaveLength(N);
    const read = timed(() => createRecording(entries).stateAt(entries.length - 1));
    expect(read.ms).toBeLessThan(BUDGET_MS);
    expect(listOf(read.result).map((item) => item.n)).toEqual(Array.from({ length: N }, (_, i) => i));
  });
});

describe('what was seen keeps its contents', () => {
  it("a recording's reads, in any order, each hold the items up to its entry, read again after later reads", async () => {
    await loadEngine();
    // Past two checkpoints (one every 1,024 entries), so reads go on from checkpoints and from forks of them.
    const entries = entriesOf([...withItems, ...items(0, 3_000)]);
    const recording = createRecording(entries);
    const at = [3_002, 1_500, 2_999, 40, 1_025, 2_048, 3_002];
    const read = at.map((i) => ({ i, items: listOf(recording.stateAt(i)) }));
    // Entry i (stream_start at 0, RUN_STARTED, the snapshot at 2) holds i - 2 items.
    for (const { i, items } of read) expect(items.map((item) => item.n)).toEqual(Array.from({ length: i - 2 }, (_, k) => k));
  });

  it('each thread a controller publishes keeps its items while frames of many events go on', async () => {
    await loadEngine();
    const { source } = scripted(async (_n, _input, emit) => {
      emit(started);
      emit(withItems[1] as Record<string, unknown>);
      // Frames of 50 events each (the scheduler flushes in a microtask): each frame is one batch.
      for (let frame = 0; frame < 40; frame++) {
        for (const event of items(frame * 50, frame * 50 + 50)) emit(event);
        await new Promise((r) => setTimeout(r, 0));
      }
      emit({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
    });
    const controller = createRunController({ source, threadId: 't', scheduler: microScheduler });
    const seen: { items: { n: number }[]; length: number }[] = [];
    controller.subscribe(() => {
      const document = controller.getSnapshot().thread.sharedState.document as { items?: { n: number }[] } | null;
      if (document?.items) seen.push({ items: document.items, length: document.items.length });
    });
    await controller.run();
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.at(-1)?.length).toBe(2_000);
    for (const { items, length } of seen) expect(items).toHaveLength(length);
    controller.destroy();
  });

  it('a patch that fails inside a batch leaves the document as it was', async () => {
    const engine = await loadEngine();
    const first = replayEvents([...withItems, ...items(0, 3)] as never, undefined, { open: true });
    const state = replayEvents(
      [
        ...withItems,
        ...items(0, 3),
        // Walks through /items/0 (copying it into the list this batch made) and fails at a member it does not have.
        { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/0/missing/deep', value: 1 }] },
      ] as never,
      undefined,
      { open: true },
    );
    expect(state.sharedState.sync).toBe('desynced');
    expect(listOf(state)).toEqual(listOf(first));
    // Inside the batch, the item it walked through is the one the list held, not a copy of it.
    const machine = createThreadMachine({ engine: () => engine });
    let walked: unknown;
    let after: unknown;
    machine.batch(() => {
      let thread: ThreadState | undefined;
      for (const event of [...withItems, ...items(0, 3)]) thread = machine.apply(asEntry(event, 0));
      walked = listOf(thread as ThreadState)[0];
      const failing = { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/0/missing/deep', value: 1 }] };
      after = listOf(machine.apply(asEntry(failing, 0)))[0];
    });
    expect(after).toBe(walked);
    // A patch of several operations is atomic: what its operations before the failing one wrote into the list the
    // batch made (an append, an insert, a replace, a remove, a copy, a write through an item) is taken back.
    const writes = [
      { op: 'add', path: '/items/-', value: { n: 3 } },
      { op: 'add', path: '/items/0', value: { n: -1 } },
      { op: 'replace', path: '/items/2', value: { n: 10 } },
      { op: 'remove', path: '/items/1' },
      { op: 'copy', from: '/items/0', path: '/items/1' },
      { op: 'add', path: '/items/3/extra', value: true },
      { op: 'test', path: '/title', value: 'another title' },
    ];
    const kept: unknown[][] = [];
    const fresh = createThreadMachine({ engine: () => engine });
    fresh.batch(() => {
      for (const event of [...withItems, ...items(0, 6)]) kept.push([...(listOf(fresh.apply(asEntry(event, 0))) ?? [])]);
      const atomic = fresh.apply(asEntry({ type: 'STATE_DELTA', delta: writes }, 0));
      expect(atomic.sharedState.sync).toBe('desynced');
      kept.push(listOf(atomic));
    });
    const [before, failed] = [kept.at(-2) as unknown[], kept.at(-1) as unknown[]];
    expect(failed.map((item) => (item as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [i, item] of failed.entries()) expect(item).toBe(before[i]);
  });

  it('a stream cut off, an event outside any stream and the reconnect give in one batch what they give one entry at a time', async () => {
    const engine = await loadEngine();
    const entries: SessionEntryBody[] = [
      { type: 'stream_start', kind: 'run', runId: 'r' },
      ...[...withItems, ...items(0, 3)].map(asEntry),
      { type: 'stream_end', open: true },
      // A hand-made log's event outside any stream opens one from the thread the cut left.
      ...items(3, 5).map(asEntry),
      { type: 'stream_end', open: false },
      { type: 'stream_start', kind: 'run', runId: 'r', reconnect: true },
      ...items(5, 6).map(asEntry),
    ];
    const apart = createThreadMachine({ engine: () => engine });
    for (const entry of entries) apart.apply(entry);
    expect(listOf(replaySession(entries))).toEqual(listOf(apart.thread));
  });

  it('for any stream cut anywhere: a batch from a thread that was seen leaves it as it was, and gives what one event at a time gives', () => {
    fc.assert(
      fc.property(fc.oneof(validStream, mostlyValidStream), fc.nat(), (events, cut) => {
        const k = cut % (events.length + 1);
        const seen = replayEvents(events.slice(0, k) as never, undefined, { open: true, now: () => 1 });
        const before = JSON.stringify(view(seen));
        const batched = replayEvents(events.slice(k) as never, seen, { open: true, startIndex: k, now: () => 1 });
        expect(JSON.stringify(view(seen))).toBe(before);
        // The same two streams one event at a time, outside any batch: every append copies.
        const first = createEventPipeline(undefined, { now: () => 1 });
        for (const event of events.slice(0, k)) first.push(event);
        const apart = createEventPipeline(first.state, { startIndex: k, now: () => 1 });
        for (const event of events.slice(k)) apart.push(event);
        expect(JSON.stringify(view(batched))).toBe(JSON.stringify(view(apart.state)));
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
