/**
 * Story support for the messages components: event builders for the
 * conversations they show, and a store whose run stays open. Not part of the
 * package's API.
 */
import type { AgentSource } from '@aguikit/core';
import { type AgentStore, type AgentStoreOptions, createAgentStore } from '@aguikit/react';
import { runOf, type ScriptEvent, STORY_THREAD, say, waitForState } from './scripted.js';

/** A 32×32 PNG (a sun on a gradient), base64. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAGb0lEQVR42pXUoQu7/r7H8fPnnGQyySkmk8n2AWEGB4JBmMGxYBhjMMaCYWxhgwVhsIUNBIMwgyJPPkHkFJPJ5F9xr/CL995zf1945tcjvd//+KdAEagCTaALDIEpsARCsBAsBb5gJVgLYsFOcBQkgovgLkgFL8FXkAt+glogBZ2gFwyCUTAJ/vFPG8VGtdFsdBvDxrSxbITNwmZp49usbNY2sc3O5miT2Fxs7japzcvma5Pb/GxqG2nT2fQ2g81oM9kz4KA4qA6ag+5gOJgOloNwWDgsHXyHlcPaIXbYORwdEoeLw90hdXg5fB1yh59D7SAdOofeYXAYHSZnBlwUF9VFc9FdDBfTxXIRLguXpYvvsnJZu8QuO5ejS+Jycbm7pC4vl69L7vJzqV2kS+fSuwwuo8vkzoCH4qF6aB66h+FhelgewmPhsfTwPVYea4/YY+dx9Eg8Lh53j9Tj5fH1yD1+HrWH9Og8eo/BY/SYvBnwUXxUH81H9zF8TB/LR/gsfJY+vs/KZ+0T++x8jj6Jz8Xn7pP6vHy+PrnPz6f2kT6dT+8z+Iw+kz8DAUqAGqAF6AFGgBlgBYiARcAywA9YBawD4oBdwDEgCbgE3APSgFfANyAP+AXUATKgC+gDhoAxYApmIEQJUUO0ED3ECDFDrBARsghZhvghq5B1SByyCzmGJCGXkHtIGvIK+YbkIb+QOkSGdCF9yBAyhkzhDEQoEWqEFqFHGBFmhBUhIhYRywg/YhWxjogjdhHHiCTiEnGPSCNeEd+IPOIXUUfIiC6ijxgixogpmoENygZ1g7ZB32BsMDdYG8SGxYblBn/DasN//ftf/7N0w2vDd0O+4beh3iA3dBv6DcOGccO0mYEYJUaN0WL0GCPGjLFiRMwiZhnjx//7+l+9Yr4xecwvpo6RMV1MHzPEjDFTPANblC3qFm2LvsXYYm6xtogtiy3L7X9a/6vvlnzLb0u9RW7ptvRbhi3jlmk7A3uUPeoebY++x9hj7rH2iD2L/f+//lf5nt+eeo/c0+3p9wx7xj3TfgYOKAfUA9oB/YBxwDxgHRCHv7v+V78D9QF5oDvQHxgOjAemwwycUE6oJ7QT+gnjhHnCOiFOfwicqE/IE92J/sRwYjwxnWYgQUlQE7QEPcFIMBOsBJH8IZBQJ8iELqFPGBLGhCmZgTPKGfWMdkY/Y5wxz1hnxPkPgTP1GXmmO9OfGc6MZ6bzDFxRrqhXtCv6FeOKecW6Iq5/CFypr8gr3ZX+ynBlvDJdZ+CGckO9od3Qbxg3zBvWDXH7Q+BGfUPe6G70N4Yb443pNgMPlAfqA+2B/sB4YD6wHojHHwIP6gfyQfegfzA8GB9MjxlIUVLUFC1FTzFSzBQrRaQs0r99Bym/lDpFpnQpfcqQMqZM6Qw8UZ6oT7Qn+hPjifnEeiKeLJ4sn3/jkp/kT35P6ifySfekfzI8GZ9Mzxl4o7xR32hv9DfGG/ON9Ua8WbxZvvHf//EXvfm+yd/83tRv5JvuTf9meDO+md4z8EH5oH7QPugfjA/mB+uD+LD4sPzgf1h9/o9v+uH14fsh//D7UH+QH7oP/Yfhw/hh+sxAhpKhZmgZeoaRYWZYGSJjkbHM8DNWGeuMOGOXccxIMi4Z94w045Xxzcgzfhl1hszoMvqMIWPMmLIZyFFy1BwtR88xcswcK0fkLHKWOX7OKmedE+fsco45Sc4l556T5rxyvjl5zi+nzpE5XU6fM+SMOVM+AwVKgVqgFegFRoFZYBWIgkXBssAvWBWsC+KCXcGxICm4FNwL0oJXwbcgL/gV1AWyoCvoC4aCsWAqZqBEKVFLtBK9xCgxS6wSUbIoWZb4JauSdUlcsis5liQll5J7SVryKvmW5CW/krpElnQlfclQMpZM5QxUKBVqhVahVxgVZoVVISoWFcsKv2JVsa6IK3YVx4qk4lJxr0grXhXfirziV1FXyIquoq8YKsaKqZqBBqVBbdAa9AajwWywGkTDomHZ4DesGtYNccOu4diQNFwa7g1pw6vh25A3/BrqBtnQNfQNQ8PYMDUzIFEkqkST6BJDYkosiZAsJEuJL1lJ1pJYspMcJYnkIrlLUslL8pXkkp+klkhJJ+klg2SUTHIGWpQWtUVr0VuMFrPFahEti5Zli9+yalm3xC27lmNL0nJpubekLa+Wb0ve8mupW2RL19K3DC1jy9Ty36W2q0Ud5iihAAAAAElFTkSuQmCC';

type Attribution = { subagentRunId?: string; name?: string; metadata?: Record<string, unknown> };

/** An assistant message streamed in `parts`, optionally from a subagent, with a name and metadata. */
export function sayAs(messageId: string, text: string, parts = 1, attribution: Attribution = {}): ScriptEvent[] {
  const { subagentRunId, name, metadata } = attribution;
  const sub = subagentRunId === undefined ? {} : { subagentRunId };
  const size = Math.ceil(text.length / parts);
  const deltas = Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size)).filter(Boolean);
  return [
    {
      type: 'TEXT_MESSAGE_START',
      messageId,
      role: 'assistant',
      ...sub,
      ...(name === undefined ? {} : { name }),
      ...(metadata === undefined ? {} : { metadata }),
    },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta, ...sub })),
    { type: 'TEXT_MESSAGE_END', messageId, ...sub },
  ];
}

/** A reasoning span with one reasoning message, streamed word by word when `streamed`. */
export function think(messageId: string, text: string, { streamed = false, end = true } = {}): ScriptEvent[] {
  const deltas = streamed ? text.split(/(?<= )/) : [text];
  return [
    { type: 'REASONING_START', messageId: `${messageId}-span` },
    { type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' },
    ...deltas.map((delta) => ({ type: 'REASONING_MESSAGE_CONTENT', messageId, delta })),
    ...(end
      ? [
          { type: 'REASONING_MESSAGE_END', messageId },
          { type: 'REASONING_END', messageId: `${messageId}-span` },
        ]
      : []),
  ];
}

/** Splits a text into word-sized deltas, to stream visibly. */
export function words(messageId: string, text: string): ScriptEvent[] {
  return text.split(/(?<= )/).map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta }));
}

/** Where a live run stops: before `events[at]`, until `opened` resolves (see `playGate`). */
export interface StreamGate {
  at: number;
  opened: PromiseLike<unknown>;
}

/**
 * A store whose run plays `events` (`delayMs` apart) and then stays open, as
 * an agent still at work does. Resolves once the events are applied, or at
 * once when `live` (the story shows them arriving). A live run given a
 * `gate` waits there until it opens.
 */
export async function openRunStore(
  events: ScriptEvent[],
  { say = 'Go', delayMs = 0, live = false, gate }: { say?: string; delayMs?: number; live?: boolean; gate?: StreamGate } = {},
  options: Partial<AgentStoreOptions> = {},
): Promise<AgentStore> {
  const script = runOf(events, null);
  const source: AgentSource = {
    async *run(_input, run = {}) {
      run.onConnection?.('open');
      for (const [i, event] of script.entries()) {
        // script[0] is the RUN_STARTED that runOf put before the events.
        if (gate && i === gate.at + 1) {
          await Promise.race([
            gate.opened,
            new Promise((_, reject) =>
              run.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true }),
            ),
          ]);
        }
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        yield event;
      }
      await new Promise<void>((_, reject) =>
        run.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true }),
      );
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, ...options, source });
  void store.getState().run(say);
  if (!live) await waitForState(store, (s) => s.eventCount >= script.length && s.thread.eventCount >= script.length);
  return store;
}

/** A thread of `count` messages restated by one MESSAGES_SNAPSHOT, as an agent reloading a long history does. */
export function longHistory(count: number): ScriptEvent[] {
  const messages = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { id: `old-${i}`, role: 'user', content: `Question ${i / 2 + 1}: what is the status of order A-${1000 + i}?` }
      : {
          id: `old-${i}`,
          role: 'assistant',
          content:
            i % 6 === 1
              ? `Order **A-${999 + i}** shipped.\n\n- carrier: Parcelo\n- tracking: \`PX-${i}\``
              : `Order A-${999 + i} is being prepared; it ships within ${1 + (i % 3)} days.`,
        },
  );
  return [{ type: 'MESSAGES_SNAPSHOT', messages }];
}

/** The main agent starts two subagents that stream at the same time (their run stays open). */
export const CONCURRENT_SUBAGENTS: ScriptEvent[] = [
  ...say('a1', 'I will ask two specialists in parallel.'),
  { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-policy', name: 'Policy reader', description: 'Reads the return policy' },
  { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-carrier', name: 'Carrier tracker', description: 'Asks the carrier' },
  { type: 'TEXT_MESSAGE_START', messageId: 'p1', role: 'assistant', subagentRunId: 'sa-policy' },
  { type: 'TEXT_MESSAGE_START', messageId: 'c1', role: 'assistant', subagentRunId: 'sa-carrier' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'p1', delta: 'Returns are accepted within ', subagentRunId: 'sa-policy' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'c1', delta: 'Parcel PX-88213 was ', subagentRunId: 'sa-carrier' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'p1', delta: '30 days of delivery.', subagentRunId: 'sa-policy' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'c1', delta: 'delivered on Monday.', subagentRunId: 'sa-carrier' },
  { type: 'TEXT_MESSAGE_END', messageId: 'p1', subagentRunId: 'sa-policy' },
  { type: 'TEXT_MESSAGE_END', messageId: 'c1', subagentRunId: 'sa-carrier' },
];

/** A subagent that starts two of its own: one finishes, one fails; it ends suspended on an interrupt. */
export const NESTED_SUBAGENTS: ScriptEvent[] = [
  ...say('a1', 'Delegating the investigation.'),
  { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-lead', name: 'Investigator' },
  ...sayAs('l1', 'I will check the warehouse log and ask an auditor.', 1, { subagentRunId: 'sa-lead' }),
  { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-audit', name: 'Auditor', parentSubagentRunId: 'sa-lead' },
  ...sayAs('x1', 'The warehouse scanned the parcel twice: once damaged.', 1, { subagentRunId: 'sa-audit' }),
  { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa-audit', result: { damaged: true } },
  { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-photos', name: 'Photo checker', parentSubagentRunId: 'sa-lead' },
  { type: 'SUBAGENT_ERROR', subagentRunId: 'sa-photos', message: 'The photo service timed out', code: 'TIMEOUT' },
  { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa-lead', outcome: { type: 'suspended', interruptIds: ['int-approve'] } },
  ...say('a2', 'The investigation needs your approval to continue.'),
];
