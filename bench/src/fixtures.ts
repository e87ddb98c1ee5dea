/**
 * The inputs every case is measured on, deterministic (no randomness: a
 * figure must not depend on the seed of the day). Both sides of a comparison
 * get the same events, each side its own copy.
 */
import type { Message } from '@aguikit/core';

export const THREAD_ID = 'bench-thread';

const WORDS = [
  ' the',
  ' refund',
  ' for',
  ' order',
  ' A-1001',
  ' was',
  ' approved',
  ',',
  ' and',
  ' it',
  ' will',
  ' reach',
  ' your',
  ' card',
  ' in',
  ' 3',
  ' days',
  '.',
];

/** The i-th streamed token: a word of about four characters, as a model streams them. */
export function token(i: number): string {
  return WORDS[i % WORDS.length] ?? ' x';
}

/** A prose text of `length` characters. */
function prose(seed: number, length: number): string {
  let text = '';
  for (let i = seed; text.length < length; i++) text += token(i);
  return text.slice(0, length);
}

/** A thread's history: `n` messages, user and assistant in turn, 300 characters each (a short chat turn). */
export function history(n: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) {
    const content = prose(i, 300);
    out.push(i % 2 === 0 ? { id: `h${i}`, role: 'user', content } : { id: `h${i}`, role: 'assistant', content });
  }
  return out;
}

export interface StreamIds {
  readonly runId: string;
  readonly messageId: string;
}

/** One run streaming one assistant message: RUN_STARTED, TEXT_MESSAGE_START, `deltas` x CONTENT, END, RUN_FINISHED. */
export function textRun(deltas: number, ids: StreamIds): Record<string, unknown>[] {
  const { runId, messageId } = ids;
  const events: Record<string, unknown>[] = [
    { type: 'RUN_STARTED', threadId: THREAD_ID, runId },
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ];
  for (let i = 0; i < deltas; i++) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: token(i) });
  events.push({ type: 'TEXT_MESSAGE_END', messageId }, { type: 'RUN_FINISHED', threadId: THREAD_ID, runId });
  return events;
}

/**
 * Tool-call arguments of at least `bytes` characters, as a model writes them:
 * an object holding an array of records with strings, numbers and booleans.
 */
export function argumentsJson(bytes: number): string {
  const rows: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = { sku: `SKU-${1000 + i}`, title: prose(i, 24 + (i % 5) * 8), quantity: (i % 7) + 1, price: 9.5 + i, gift: i % 3 === 0 };
    rows.push(row);
    size += JSON.stringify(row).length + 1;
  }
  return JSON.stringify({ customer: 'C-42', currency: 'EUR', items: rows });
}

/** One run streaming one tool call's arguments in deltas of `deltaSize` characters. */
export function toolArgsRun(json: string, deltaSize: number, ids: { runId: string; toolCallId: string }): Record<string, unknown>[] {
  const { runId, toolCallId } = ids;
  const events: Record<string, unknown>[] = [
    { type: 'RUN_STARTED', threadId: THREAD_ID, runId },
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'create_order' },
  ];
  for (let at = 0; at < json.length; at += deltaSize)
    events.push({ type: 'TOOL_CALL_ARGS', toolCallId, delta: json.slice(at, at + deltaSize) });
  events.push({ type: 'TOOL_CALL_END', toolCallId }, { type: 'RUN_FINISHED', threadId: THREAD_ID, runId });
  return events;
}

/** Each event as one SSE frame (`data: <json>` and a blank line), as UTF-8 bytes: one network chunk per frame. */
export function sseFrames(events: readonly unknown[]): Uint8Array[] {
  const encoder = new TextEncoder();
  return events.map((e) => encoder.encode(`data: ${JSON.stringify(e)}\n\n`));
}

/** The same bytes regrouped into chunks of about `size` bytes (frames cut anywhere, as TCP does). */
export function rechunk(frames: readonly Uint8Array[], size: number): Uint8Array[] {
  const total = frames.reduce((n, f) => n + f.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const f of frames) {
    all.set(f, at);
    at += f.length;
  }
  const out: Uint8Array[] = [];
  for (let i = 0; i < total; i += size) out.push(all.subarray(i, i + size));
  return out;
}

/** A flat shared-state document of `keys` keys, each a small record. */
export function flatDocument(keys: number): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < keys; i++) doc[`k${i}`] = { n: i, label: `item ${i}` };
  return doc;
}
