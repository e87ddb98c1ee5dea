/**
 * Where a result goes, against the rule stated plainly: right after its
 * caller (looked for from the end of the thread), past the results already
 * there; at the end when no reply the thread holds made the call. Random
 * sessions of replies, calls and results in any order, applied in a batch (a
 * replay, which writes the ids in place) and one event at a time (each state
 * kept, and checked unchanged at the end).
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { createEventPipeline, replayEvents } from '../src/engine.js';
import { loadEngine, type ThreadState } from '../src/index.js';

beforeAll(() => loadEngine());

type Step = { kind: 'reply' } | { kind: 'call'; parent: number } | { kind: 'result'; call: number; orphan: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'reply' }),
  fc.record({ kind: fc.constant('call' as const), parent: fc.nat(12) }),
  fc.record({ kind: fc.constant('result' as const), call: fc.nat(30), orphan: fc.boolean() }),
  fc.record({ kind: fc.constant('result' as const), call: fc.nat(30), orphan: fc.constant(false) }),
);

/** The events of `steps`, and the order of the messages the rule gives (the placement as it was: `lastIndexOf`). */
function session(steps: readonly Step[]) {
  const events: Record<string, unknown>[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  const ids: string[] = [];
  const roles = new Map<string, 'assistant' | 'tool'>();
  const calls: { id: string; parent: string }[] = [];
  let replies = 0;
  let results = 0;
  for (const s of steps) {
    if (s.kind === 'reply') {
      const id = `m${replies++}`;
      events.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
      events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: 'x' });
      events.push({ type: 'TEXT_MESSAGE_END', messageId: id });
      ids.push(id);
      roles.set(id, 'assistant');
    } else if (s.kind === 'call') {
      // A reply the thread holds, or one the call makes.
      const parent = s.parent < replies ? `m${s.parent}` : `m${replies++}`;
      const id = `c${calls.length}`;
      calls.push({ id, parent });
      events.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup', parentMessageId: parent });
      events.push({ type: 'TOOL_CALL_END', toolCallId: id });
      if (!roles.has(parent)) {
        ids.push(parent);
        roles.set(parent, 'assistant');
      }
    } else {
      const call = s.orphan || calls.length === 0 ? undefined : calls[s.call % calls.length];
      const id = `r${results++}`;
      events.push({ type: 'TOOL_CALL_RESULT', toolCallId: call?.id ?? `unknown-${id}`, messageId: id, content: 'ok' });
      roles.set(id, 'tool');
      let at = call ? ids.lastIndexOf(call.parent) : -1;
      if (at === -1) ids.push(id);
      else {
        at++;
        while (at < ids.length && roles.get(ids[at] as string) === 'tool') at++;
        ids.splice(at, 0, id);
      }
    }
  }
  events.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  return { events, ids };
}

it('a result goes right after its caller, past the results there, in a batch and one event at a time', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
      const { events, ids } = session(steps);
      const replayed = replayEvents(events);
      expect(replayed.messages.ids).toEqual(ids);
      // Replayed again: what is remembered of the arrays the first replay made changes nothing.
      expect(replayEvents(events).messages.ids).toEqual(ids);
      const pipeline = createEventPipeline();
      const kept: { state: ThreadState; ids: string[] }[] = [];
      for (const e of events) {
        const state = pipeline.push(e);
        kept.push({ state, ids: [...state.messages.ids] });
      }
      expect(pipeline.state.messages.ids).toEqual(ids);
      for (const k of kept) expect(k.state.messages.ids).toEqual(k.ids);
      // A replay that goes on from a state another went on from: each keeps its own.
      const half = kept[Math.floor(kept.length / 2)]?.state as ThreadState;
      const rest = events.slice(Math.floor(kept.length / 2) + 1);
      const before = [...half.messages.ids];
      const a = replayEvents(rest, half);
      const b = replayEvents(rest, half);
      expect(half.messages.ids).toEqual(before);
      expect(a.messages.ids).toEqual(ids);
      expect(b.messages.ids).toEqual(ids);
    }),
    { numRuns: 300 },
  );
});
