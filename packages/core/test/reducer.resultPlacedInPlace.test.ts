/**
 * A result placed after its caller in a batch writes the ids array in place
 * only when no one has seen it: a thread published from a listener in the
 * middle of a frame, a checkpoint of a recording and a state read with
 * `stateAt` keep the ids they were handed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecording, createRunController, loadEngine, type ThreadState } from '../src/index.js';
import { finished, microScheduler, scripted, started } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

/** Calls c0..c(n-1), each from a reply of its own, then their results in call order: each goes among the replies. */
function callsThenResults(n: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    events.push({ type: 'TOOL_CALL_START', toolCallId: `c${i}`, toolCallName: 'lookup', parentMessageId: `reply-${i}` });
    events.push({ type: 'TOOL_CALL_END', toolCallId: `c${i}` });
  }
  for (let i = 0; i < n; i++) events.push({ type: 'TOOL_CALL_RESULT', toolCallId: `c${i}`, messageId: `r${i}`, content: 'ok' });
  return events;
}

/**
 * A controller whose agent sends `events` in one frame (one batch), with an `onEvent` that, at the event `at` picks,
 * calls an action refused at once: the refusal publishes the thread as it is then, in the middle of the batch. Each
 * published thread is kept with a copy of what `pick` reads of it, to compare at the end.
 */
async function publishedMidFrame(
  events: Record<string, unknown>[],
  at: (event: { type: string; toolCallId?: string }) => boolean,
  pick: (thread: ThreadState) => readonly string[] | undefined,
) {
  const seen: { list: readonly string[]; copy: string[] }[] = [];
  const { source } = scripted((_n, input, emit) => {
    emit(started(input));
    for (const e of events) emit(e);
    emit(finished(input));
  });
  const controller = createRunController({
    source,
    scheduler: microScheduler,
    onEvent: (event) => {
      if (at(event as never)) void controller.run('again');
    },
  });
  controller.subscribe(() => {
    const list = pick(controller.getSnapshot().thread);
    if (list) seen.push({ list, copy: [...list] });
  });
  await controller.run('hi');
  return seen;
}

describe('a thread published from a listener in the middle of a batch', () => {
  it('keeps its message ids while the batch places the results after their callers', async () => {
    const seen = await publishedMidFrame(
      callsThenResults(4),
      (e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === 'c2',
      (thread) => thread.messages.ids,
    );
    // Published after r1, before r2 is placed among the replies.
    expect(seen.map((s) => s.copy)).toContainEqual(expect.arrayContaining(['r1']));
    for (const s of seen) expect(s.list).toEqual(s.copy);
  });

  it('keeps the calls of a reply while the batch adds more', async () => {
    const calls = [0, 1, 2, 3].flatMap((i) => [
      { type: 'TOOL_CALL_START', toolCallId: `c${i}`, toolCallName: 'lookup', parentMessageId: 'reply' },
      { type: 'TOOL_CALL_END', toolCallId: `c${i}` },
    ]);
    const seen = await publishedMidFrame(
      calls,
      (e) => e.type === 'TOOL_CALL_START' && e.toolCallId === 'c2',
      (thread) => thread.messages.byId.get('reply')?.toolCallIds,
    );
    expect(seen.map((s) => s.copy)).toContainEqual(['c0', 'c1']);
    for (const s of seen) expect(s.list).toEqual(s.copy);
  });
});

describe('a recording read at one entry, then further', () => {
  it('the state read first keeps its ids', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      ...callsThenResults(6),
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ];
    const entries = [
      { type: 'init', threadId: 't' },
      { type: 'stream_start', kind: 'run', runId: 'r' },
      ...events.map((event, index) => ({ type: 'event', event, index })),
      { type: 'stream_end', open: false },
    ];
    for (const every of [1, 2, 3, 5, 8, 1024]) {
      const recording = createRecording(entries as never, { every });
      const states: { state: ThreadState; copy: string[] }[] = [];
      for (let i = 0; i < entries.length; i++) {
        const state = recording.stateAt(i);
        states.push({ state, copy: [...state.messages.ids] });
      }
      // Read again in another order: checkpoints made by the first reads are forked again.
      for (let i = entries.length - 1; i >= 0; i--) recording.stateAt(i);
      for (const { state, copy } of states) expect(state.messages.ids).toEqual(copy);
    }
  });
});
