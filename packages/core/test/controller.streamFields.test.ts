import { describe, expect, it } from 'vitest';
import { openStream } from '../src/controller/stream.js';
import type { Refusal } from '../src/controller/types.js';
import type { RunAgentInput } from '../src/index.js';

const why: Refusal = { code: 'RUN_IN_PROGRESS', message: 'another run started' };
const input = { threadId: 't', runId: 'r', messages: [], tools: [], context: [], state: {}, forwardedProps: {} } as RunAgentInput;

describe('a stream', () => {
  // Read several times per event: V8 keeps an object literal with an accessor in its slow (dictionary) mode.
  it('holds what it reads per event as data properties, none an accessor', () => {
    const s = openStream(input, 'run');
    const accessors = Object.entries(Object.getOwnPropertyDescriptors(s)).filter(([, d]) => d.get || d.set);
    expect(accessors.map(([name]) => name)).toEqual([]);
  });

  it('is live until torn down, and a second teardown changes nothing', () => {
    const s = openStream(input, 'run');
    let cancelled = 0;
    s.cancelFlush = () => cancelled++;
    s.pending.push({ type: 'TEXT_MESSAGE_CONTENT' });
    expect(s.live).toBe(true);
    s.teardown(why);
    expect([s.live, s.request.signal.aborted, cancelled, s.pending.length, s.endedBy]).toEqual([false, true, 1, 0, why]);
    s.teardown();
    expect([s.live, cancelled, s.endedBy]).toEqual([false, 1, why]);
  });

  it('says it was torn down through its promise', async () => {
    const s = openStream(input, 'resume');
    s.teardown();
    await expect(s.tornDown).resolves.toBeUndefined();
  });
});
