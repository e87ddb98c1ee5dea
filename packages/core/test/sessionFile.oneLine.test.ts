import { describe, expect, it } from 'vitest';
import { parseSession } from '../src/index.js';
import { serializeEventLog } from '../src/internal.js';

describe('parseSession: an event log of one line', () => {
  it('reads an event log of one entry as its agent event, as it reads one of two', () => {
    const text = serializeEventLog([{ index: 0, receivedAt: 10, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } }]);
    const parsed = parseSession(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => [e.type, e.at])).toEqual([['event', 10]]);
  });

  it('reads a one-line event-log entry without receivedAt ({"event":...}) as an agent event', () => {
    const parsed = parseSession('{"event":{"type":"RUN_STARTED","threadId":"t","runId":"r"}}\n');
    expect(parsed.oneObject).toBeUndefined();
    expect(parsed.entries).toHaveLength(1);
  });
});
