import { expect } from 'vitest';
import type { ThreadState } from '../../src/index.js';

/** The invariants every state reached at the end of a stream holds, whatever the stream was. */
export function expectConsistent(s: ThreadState): void {
  expect(new Set(s.messages.ids).size).toBe(s.messages.ids.length);
  expect(s.messages.byId.size).toBe(s.messages.ids.length);
  for (const id of s.messages.ids) expect(s.messages.byId.get(id)?.id).toBe(id);
  expect(s.run.status).not.toBe('running');
  for (const id of s.messages.ids) expect(s.messages.byId.get(id)?.streaming).toBe(false);
  for (const call of s.toolCalls) {
    // The parent lists the call by its key: its id, or `<id>#<runId>` once a later run's call took the id (model.ts).
    if (call.parentMessageId !== undefined) {
      const keys = s.messages.byId.get(call.parentMessageId)?.toolCallIds ?? [];
      expect(keys.some((k) => k === call.id || k.startsWith(`${call.id}#`))).toBe(true);
    }
    expect(['declared', 'args_streaming']).not.toContain(call.status);
  }
  for (const it of s.interrupts) expect(typeof it.id === 'string' && it.id !== '').toBe(true);
}
