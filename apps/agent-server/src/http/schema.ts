import type { RunAgentInput } from '@aguikit/core';
import { RequestError } from '../request.js';

/** The longest thread, run, message and interrupt id accepted. */
export const MAX_ID = 200;
/** The most messages a `RunAgentInput` may carry. */
export const MAX_MESSAGES = 20_000;
/** The most tools, context entries and resume entries. */
export const MAX_ITEMS = 1_000;
/** How deeply a body may nest (objects and arrays). Real inputs need about 10. */
export const MAX_DEPTH = 64;

/**
 * An id is one line of well-formed text: no control character (a line break in a run id would end the SSE `id:` line
 * and forge frames), no lone surrogate (UTF-8 storage and the wire would write it as U+FFFD, so two ids would be one,
 * and a run's own event ids would not name it). Ajv's patterns are Unicode: a surrogate pair is one code point.
 */
const id = { type: 'string', minLength: 1, maxLength: MAX_ID, pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$' } as const;

/**
 * The JSON Schema of a POSTed `RunAgentInput`, checked by Fastify (Ajv)
 * before the handler sees the body. Fields the server does not read are let
 * through as they are (a client may send more than it needs to).
 */
export const runInputSchema = {
  type: 'object',
  required: ['threadId', 'runId', 'messages', 'tools', 'context'],
  properties: {
    threadId: id,
    runId: id,
    parentRunId: id,
    messages: {
      type: 'array',
      maxItems: MAX_MESSAGES,
      items: { type: 'object', required: ['id', 'role'], properties: { id, role: { type: 'string', minLength: 1, maxLength: 50 } } },
    },
    tools: { type: 'array', maxItems: MAX_ITEMS },
    context: { type: 'array', maxItems: MAX_ITEMS },
    resume: {
      type: 'array',
      maxItems: MAX_ITEMS,
      items: {
        type: 'object',
        required: ['interruptId', 'status'],
        properties: { interruptId: id, status: { enum: ['resolved', 'cancelled'] } },
      },
    },
  },
} as const;

/**
 * Parses a JSON body, refusing one nested deeper than `MAX_DEPTH` before it
 * is parsed: the nesting is counted over the text in one pass, so a body of a
 * hundred thousand brackets costs a scan, never a recursion, and nothing of it
 * is applied anywhere. An object that names a member twice is refused too:
 * JSON.parse keeps the last, other parsers the first, so a proxy in front of
 * the server could check one `threadId` while the server ran another.
 */
export function parseJsonBody(text: string): unknown {
  if (nesting(text) > MAX_DEPTH)
    throw new RequestError(400, 'TOO_DEEP', `The body nests deeper than ${MAX_DEPTH} levels of objects and arrays.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RequestError(400, 'MALFORMED_JSON', `The body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const twice = duplicateKey(text);
  if (twice !== undefined)
    throw new RequestError(400, 'DUPLICATE_KEY', `An object of the body names the member ${JSON.stringify(twice.slice(0, 50))} twice.`);
  return value;
}

/**
 * The first member name an object of a JSON text (one JSON.parse took) gives twice, as JSON.parse reads it (escapes
 * decoded); undefined when none does. One pass, no recursion: each object open holds the names seen in it so far.
 */
export function duplicateKey(text: string): string | undefined {
  /** Per open bracket: null for an array, the names of an object (made at its first member). */
  const open: (Set<string> | null | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      for (;;) {
        end = text.indexOf('"', end);
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end++;
      }
      if (expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        let names = open[open.length - 1];
        if (!names) open[open.length - 1] = names = new Set();
        if (names.has(key)) return key;
        names.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b) {
      open.push(undefined);
      expectKey = true;
    } else if (c === 0x5b) {
      open.push(null);
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      expectKey = false;
    } else if (c === 0x2c) expectKey = open.length > 0 && open[open.length - 1] !== null;
  }
  return undefined;
}

/** The deepest nesting of `{` and `[` in a JSON text, outside strings (stops counting once past the limit). */
export function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > MAX_DEPTH) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Ajv's findings, as one of the server's error codes naming the field. */
export function validationError(errors: readonly { instancePath: string; keyword: string; message?: string }[]): RequestError {
  const first = errors[0];
  const path = first?.instancePath ?? '';
  const where = path ? path.slice(1).replaceAll('/', '.') : 'the body';
  if (path === '/threadId' || (path === '' && first?.message?.includes("'threadId'")))
    return new RequestError(
      400,
      'MISSING_THREAD_ID',
      `threadId must be one line of text, 1 to ${MAX_ID} characters (no control character, no lone surrogate).`,
    );
  if (path === '/runId' || (path === '' && first?.message?.includes("'runId'")))
    return new RequestError(
      400,
      'MISSING_RUN_ID',
      `runId must be one line of text, 1 to ${MAX_ID} characters (no control character, no lone surrogate).`,
    );
  if (path === '/messages' && first?.keyword === 'maxItems')
    return new RequestError(413, 'TOO_MANY_MESSAGES', `At most ${MAX_MESSAGES} messages are accepted.`);
  if (path === '' && first?.keyword === 'type') return new RequestError(400, 'INVALID_INPUT', 'The body must be a RunAgentInput object.');
  return new RequestError(400, 'INVALID_INPUT', `${where} ${first?.message ?? 'is invalid'}.`);
}

/** Checks what a schema cannot say: an interrupt answered twice in one resume. */
export function checkRunInput(input: RunAgentInput): RunAgentInput {
  const seen = new Set<string>();
  for (const r of input.resume ?? []) {
    if (seen.has(r.interruptId)) throw new RequestError(400, 'DUPLICATE_ANSWER', 'One interrupt is answered twice in the resume.');
    seen.add(r.interruptId);
  }
  return input;
}
