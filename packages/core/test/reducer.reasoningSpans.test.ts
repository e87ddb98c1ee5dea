/**
 * Open reasoning spans against an agent that opens thousands and closes
 * them in any order: a reasoning message still finds the first open span, and
 * each span opened or closed costs no scan of every open one (40,000 opened
 * took 2.6 s, closed from the middle out 1.8 s more). Timed against the same
 * events in a thread that never needed its open spans (no reasoning message),
 * which keeps no list of them: the list may cost a little more, not a scan.
 */
import { describe, expect, it } from 'vitest';
import { createEventPipeline, replayEvents } from '../src/engine.js';
import type { ThreadState } from '../src/index.js';

const N = 60_000;
const head = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  // A reasoning message in a span: the thread keeps its open spans from then on.
  { type: 'REASONING_START', messageId: 'first' },
  { type: 'REASONING_MESSAGE_START', messageId: 'm0', role: 'reasoning' },
  { type: 'REASONING_MESSAGE_END', messageId: 'm0' },
  { type: 'REASONING_END', messageId: 'first' },
];
const span = (i: number) => `span ${i}`;
const opening = Array.from({ length: N }, (_, i) => ({ type: 'REASONING_START', messageId: span(i) }));
/** From the middle out, every third one kept open. */
const middleOut = (i: number) => (i % 2 ? (N >> 1) - 1 - (i >> 1) : (N >> 1) + (i >> 1));
const closing = Array.from({ length: N }, (_, i) => middleOut(i))
  .filter((k) => k % 3)
  .map((k) => ({ type: 'REASONING_END', messageId: span(k) }));
const message = (id: string) => [
  { type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning' },
  { type: 'REASONING_MESSAGE_END', messageId: id },
];
const replay = (events: readonly object[]) => replayEvents(events as never, undefined, { open: true, now: () => 1 });
const spanOf = (state: ThreadState, id: string) => Object.values(state.reasoning).find((s) => s.messageIds.includes(id))?.id;

describe('open reasoning spans', { timeout: 120_000 }, () => {
  it('60,000 opened, then two thirds closed from the middle out: a message goes to the first open span', () => {
    const events = [
      ...head,
      ...opening,
      ...message('m1'),
      ...closing,
      ...message('m2'),
      { type: 'REASONING_END', messageId: span(0) },
      ...message('m3'),
    ];
    // Without the reasoning message: the same spans, opened and closed, and no list of the open ones.
    const bare = [...events.slice(0, 2), ...events.slice(4)].filter((e) => !('role' in e) && !(e.type === 'REASONING_MESSAGE_END'));
    let state: ThreadState | undefined;
    let within = false;
    const took: number[][] = [];
    for (let attempt = 0; attempt < 3 && !within; attempt++) {
      let began = performance.now();
      replay(bare);
      const baseline = performance.now() - began;
      began = performance.now();
      state = replay(events);
      const ms = performance.now() - began;
      took.push([Math.round(ms), Math.round(baseline)]);
      within = ms < 2 * baseline + 300;
    }
    expect(within, `ms with the list, without: ${JSON.stringify(took)}`).toBe(true);
    const thread = state as ThreadState;
    expect(spanOf(thread, 'm1')).toBe(span(0));
    expect(spanOf(thread, 'm2')).toBe(span(0));
    expect(spanOf(thread, 'm3')).toBe(span(3));
    expect(Object.values(thread.reasoning).filter((s) => s.status === 'open').length).toBe(Math.ceil(N / 3) - 1);
  });

  it('spans opened, closed and opened again, in a batch and one event at a time: a message goes to the first open one in key order', () => {
    const ids = ['b', 'a', '7', 'c', '2'];
    const events: object[] = [...head];
    let n = 0;
    // Deterministic churn over a few ids (one an array index): each step opens or closes one, then a message.
    for (let i = 0; i < 300; i++) {
      const id = ids[(i * 7 + (i >> 3)) % ids.length] as string;
      events.push({ type: i % 3 === 1 ? 'REASONING_END' : 'REASONING_START', messageId: id }, ...message(`x${n++}`));
    }
    const expectedFirst: (string | undefined)[] = [];
    // The model: the first open span in key order (array indexes first, numerically; then by first insertion).
    const order: string[] = ['first'];
    const open = new Set<string>();
    for (const e of events.slice(head.length) as { type: string; messageId: string }[]) {
      if (e.type === 'REASONING_START') {
        if (!order.includes(e.messageId)) order.push(e.messageId);
        open.add(e.messageId);
      } else if (e.type === 'REASONING_END') open.delete(e.messageId);
      else if (e.type === 'REASONING_MESSAGE_START') {
        const keys = [
          ...order.filter((k) => /^\d+$/.test(k)).sort((a, b) => Number(a) - Number(b)),
          ...order.filter((k) => !/^\d+$/.test(k)),
        ];
        expectedFirst.push(keys.find((k) => open.has(k)));
      }
    }
    const batched = replay(events);
    const pipeline = createEventPipeline(undefined, { now: () => 1 });
    for (const e of events) pipeline.push(e);
    for (const state of [batched, pipeline.state])
      expect(Array.from({ length: n }, (_, k) => spanOf(state, `x${k}`))).toEqual(expectedFirst);
  });
});
