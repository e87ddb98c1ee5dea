import { describe, expect, it } from 'vitest';
import { floor, floorInMemory, floorRound, floorTasks, sseResponse } from '../src/cases/floorTasks.js';
import { rechunk, sseFrames } from '../src/fixtures.js';

/** A stream whose deltas hold characters of one to four UTF-8 bytes. */
const events = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
  ...['Grüße', ' 東京', ' 🙂👍', ' plain', ' ½'].map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta })),
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
];
const text = 'Grüße 東京 🙂👍 plain ½';

describe("the floor's work", () => {
  it('yields the whole text in memory and over a response body, however the bytes are cut', async () => {
    const frames = sseFrames(events);
    for (const chunks of [frames, rechunk(frames, 1), rechunk(frames, 5), rechunk(frames, 7), rechunk(frames, 1 << 14)]) {
      expect(floorInMemory(chunks).get('m')).toBe(text);
      expect((await floor(sseResponse(chunks))).get('m')).toBe(text);
    }
  });
});

describe('a round of case 2', () => {
  it('turns the times of its tasks (ms per run of 2,000 deltas) into µs per token and their ratios', () => {
    const r = floorRound({
      floor: 2,
      floorInMemory: 1,
      aguikit: 5,
      aguikitBatched: 4,
      floorCoalesced: 1,
      aguikitCoalesced: 3,
      pipeline: 0.5,
    });
    expect(r.figures.floor).toBe(1);
    expect(r.figures.aguikit).toBe(2.5);
    expect(r.ratios).toEqual({
      overFloor: 2.5,
      overFloorCoalesced: 3,
      overFloorBatched: 2,
      overFloorInMemory: 5,
      bodyRead: 2,
      pipelineOverFloor: 0.25,
    });
  });

  it('times every task on the clock it is given, each run reporting what it measured', async () => {
    let ticks = 0;
    const tasks = await floorTasks(() => ticks++);
    expect(tasks.map((t) => t.name)).toEqual([
      'floor',
      'floorInMemory',
      'aguikit',
      'aguikitBatched',
      'floorCoalesced',
      'aguikitCoalesced',
      'pipeline',
    ]);
    for (const task of tasks) {
      await task.before?.();
      const before = ticks;
      const measured = await task.run();
      // Each run reads the clock exactly at its start and its end: the difference is what it reports.
      expect(ticks - before).toBe(2);
      expect(measured).toBe(1);
    }
  });
});
