/**
 * Reconnects with `Last-Event-ID` at the edges: a run id HTTP cannot carry
 * whole in a header, and a reconnect that names the run's last event when
 * the log lost what came before it.
 */
import type { RunAgentInput } from '@aguikit/core';
import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { interruptsOf, post, readEvents, startServer, userInput } from './support.js';

describe('a reconnect', () => {
  it('continues a run whose id starts with spaces, which a Last-Event-ID header carries without them', async () => {
    const server = await startServer();
    for (const [threadId, runId] of [
      ['t1', ' r1'],
      ['t2', '   '],
    ] as const) {
      const input = userInput(threadId, runId);
      const all = await readEvents(await post(server, '/agents/refund?speed=0', input));
      expect(all[2]?.id).toBe(`${runId}:2`);
      // HTTP drops the spaces at the start of a header's value: EventSource and fetch send ' r1:2' as 'r1:2'.
      const again = await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': `${runId}:2` });
      expect(again.status).toBe(200);
      expect((await readEvents(again)).map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
    }
    // Another run's id is still another run's.
    const other = await post(server, '/agents/refund?speed=0', userInput('t1', ' r1'), { 'Last-Event-ID': 'r2:2' });
    expect(other.status).toBe(400);
  });

  it("makes what a log lost before the run's last event, its refund done once, when the reconnect names that last event", async () => {
    // A storage that lost the end of a run's log after its client got the run's end (a Redis that lost its last
    // second of writes): the approval's run record is there, its log holds its first frames, its refund no record.
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    const approval: RunAgentInput = {
      ...userInput('t', 'r2'),
      messages: [],
      resume: [{ interruptId: interruptsOf(first)[0]?.id as string, status: 'resolved', payload: { approved: true } }],
    };
    const whole = await readEvents(await post(server, '/agents/refund?speed=0', approval));
    expect(whole.at(-1)?.event.type).toBe('RUN_FINISHED');
    const run = await storage.run('r2');
    const thread = await storage.thread('t');
    if (!run || !thread.record) throw new Error('not stored');
    const lost = openMemoryStorage();
    expect(await lost.beginRun(run, thread.record, 0)).toBe('created');
    for (const [i, frame] of (await storage.events('r2', 0, 2)).entries()) await lost.appendEvent('r2', i, frame);
    await lost.produced('r2');
    const second = await startServer({ storage: lost });
    const rest = await readEvents(await post(second, '/agents/refund?speed=0', approval, { 'Last-Event-ID': whole.at(-1)?.id as string }));
    expect(rest).toEqual([]);
    // What came before the event it names was made again, its refund done once, never skipped.
    expect((await lost.effects()).map((e) => e.kind)).toEqual(['refund']);
    expect(await lost.events('r2', 0, 1000)).toHaveLength(whole.length);
  });

  it("answers a Last-Event-ID past the run's end with nothing, reading one frame of a whole log, not all of it", async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    const input = userInput('t', 'r1');
    const all = await readEvents(await post(server, '/agents/refund?speed=0', input));
    const reads: number[] = [];
    const events = storage.events.bind(storage);
    storage.events = (runId, from, count) => {
      reads.push(from);
      return events(runId, from, count);
    };
    const past = await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': `r1:${all.length + 1000}` });
    expect(past.status).toBe(200);
    expect(await readEvents(past)).toEqual([]);
    // The log is whole (its last frame is there): nothing is read from its start again.
    expect(reads).not.toContain(0);
  });
});
