import type { RunAgentInput } from '@aguikit/core';

/** A refusal answered with a 4xx status and a JSON body `{ error: { code, message } }`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_ID = 200;
const MAX_MESSAGES = 20_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID;

/** Parses and checks a POSTed `RunAgentInput`; throws a `RequestError` naming the field. */
export function parseRunInput(body: string): RunAgentInput {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    throw new RequestError(400, 'MALFORMED_JSON', `The body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(value)) throw new RequestError(400, 'INVALID_INPUT', 'The body must be a RunAgentInput object.');
  if (!isId(value.threadId))
    throw new RequestError(400, 'MISSING_THREAD_ID', `threadId must be a non-empty string of at most ${MAX_ID} characters.`);
  if (!isId(value.runId))
    throw new RequestError(400, 'MISSING_RUN_ID', `runId must be a non-empty string of at most ${MAX_ID} characters.`);
  for (const field of ['messages', 'tools', 'context'] as const) {
    if (!Array.isArray(value[field])) throw new RequestError(400, 'INVALID_INPUT', `${field} must be an array.`);
  }
  const messages = value.messages as unknown[];
  if (messages.length > MAX_MESSAGES) throw new RequestError(413, 'TOO_MANY_MESSAGES', `At most ${MAX_MESSAGES} messages are accepted.`);
  messages.forEach((m, i) => {
    if (!isObject(m) || !isId(m.id) || typeof m.role !== 'string')
      throw new RequestError(400, 'INVALID_INPUT', `messages[${i}] needs a string id and role.`);
  });
  if (value.resume !== undefined) {
    if (!Array.isArray(value.resume)) throw new RequestError(400, 'INVALID_INPUT', 'resume must be an array.');
    const seen = new Set<string>();
    value.resume.forEach((r, i) => {
      if (!isObject(r) || !isId(r.interruptId) || (r.status !== 'resolved' && r.status !== 'cancelled')) {
        throw new RequestError(400, 'INVALID_INPUT', `resume[${i}] needs an interruptId and a status of resolved or cancelled.`);
      }
      if (seen.has(r.interruptId)) throw new RequestError(400, 'DUPLICATE_ANSWER', `Interrupt '${r.interruptId}' is answered twice.`);
      seen.add(r.interruptId);
    });
  }
  return value as unknown as RunAgentInput;
}

/** `runId:index` of an SSE id, or undefined when it is not one of ours. */
export function parseEventId(id: string): { runId: string; index: number } | undefined {
  const at = id.lastIndexOf(':');
  const digits = id.slice(at + 1);
  // Digits only: Number() would read '' as 0 and accept ' 3', '0x3' and '3e0'.
  if (at <= 0 || !/^\d{1,15}$/.test(digits)) return undefined;
  return { runId: id.slice(0, at), index: Number(digits) };
}
