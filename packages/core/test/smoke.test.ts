import { describe, expect, it } from 'vitest';
import { replayEvents } from '../src/index.js';

describe('replayEvents', () => {
  it('assembles a text message', () => {
    const s = replayEvents([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'lo' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
    expect(s.messages.byId.get('m')?.content).toBe('Hello');
    expect(s.run.status).toBe('success');
    expect(s.diagnostics).toEqual([]);
  });
});
