/**
 * What a line of a saved session must hold to be an entry the log can apply:
 * its type, its time, and the fields its type needs, of the kinds the live
 * controller writes them (sessionFile.ts reads the file).
 */
import { isTime } from '../eventLog.js';
import { isObject, partProblem, storedMessageProblem, UNKNOWN_PART } from '../messageShape.js';
import { COPY_DEPTH, MAX_JSON_DEPTH, nestsWithin } from '../reducer/ownJson.js';
import { isRecordedFailure } from './failure.js';

const ENTRY_NAMES = 'event init user_message stream_start stream_end state_edit state_set tool_started tool_result resume';
const ENTRY_TYPES = new Set(`${ENTRY_NAMES} resume_taken stop failed reset`.split(' '));

/** An answer to an interrupt: its id, and whether it was answered or abandoned. */
const isAnswer = (v: unknown) => isObject(v) && typeof v.interruptId === 'string' && (v.status === 'resolved' || v.status === 'cancelled');

/** Why `value` is no entry of a session log, or undefined when it is one. */
export function entryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a log entry: expected an object';
  const e = value as Record<string, unknown>;
  if (typeof e.type !== 'string' || !ENTRY_TYPES.has(e.type)) return `not a log entry: unknown type ${JSON.stringify(e.type)}`;
  if (!isTime(e.at)) return 'not a log entry: `at` must be a time in milliseconds, within what a Date holds (±8.64e15)';
  const need = (field: string, ok: boolean) => (ok ? undefined : `a ${e.type} entry needs a valid \`${field}\``);
  // An agent's event is validated (and refused past the limit) as live; what the client recorded is checked here.
  if (e.type === 'event') return need('event', 'event' in e);
  if (!nestsWithin(e, COPY_DEPTH)) return `a ${e.type} entry nests a value deeper than ${MAX_JSON_DEPTH} levels`;
  switch (e.type) {
    case 'init': {
      if (typeof e.threadId !== 'string' || e.messages === undefined) return need('threadId', typeof e.threadId === 'string');
      if (!Array.isArray(e.messages)) return need('messages', false);
      for (let i = 0; i < e.messages.length; i++) {
        const problem = storedMessageProblem(e.messages[i], `/messages/${i}`);
        if (problem) return `an init entry's messages: ${problem}`;
      }
      return undefined;
    }
    case 'user_message': {
      const problem = storedMessageProblem(e.message, '/message');
      if (problem) return `a user_message entry ${problem}`;
      return need('message', (e.message as { role?: unknown }).role === 'user');
    }
    case 'stream_start':
      return (
        need('kind', e.kind === 'run' || e.kind === 'resume') ??
        need('runId', typeof e.runId === 'string') ??
        need('reconnect', e.reconnect === undefined || typeof e.reconnect === 'boolean')
      );
    case 'stream_end':
      return need('open', typeof e.open === 'boolean');
    case 'state_edit':
      return need('delta', Array.isArray(e.delta)) ?? patchProblem(e.delta as unknown[]);
    case 'state_set':
      return need('document', 'document' in e);
    case 'tool_started':
      return need('toolCallId', typeof e.toolCallId === 'string');
    case 'tool_result': {
      // Parts as a stored message's are: each an object with a type, a known type well formed.
      const parts = Array.isArray(e.content) ? e.content.map((part, i) => partProblem(part, `/content/${i}`)) : [];
      const part = parts.find((problem) => problem !== undefined && problem !== UNKNOWN_PART);
      if (part) return `a tool_result entry ${part}`;
      return (
        need('toolCallId', typeof e.toolCallId === 'string') ??
        need('messageId', typeof e.messageId === 'string') ??
        need('content', typeof e.content === 'string' || Array.isArray(e.content)) ??
        need('error', e.error === undefined || typeof e.error === 'string')
      );
    }
    case 'resume':
      return need('runId', typeof e.runId === 'string') ?? need('resume', Array.isArray(e.resume) && e.resume.every(isAnswer));
    case 'stop':
      return need('answered', e.answered === undefined || typeof e.answered === 'boolean');
    case 'failed':
      return need('failure', isRecordedFailure(e.failure));
    default:
      return undefined;
  }
}

const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** A JSON Pointer: empty (the whole document), or steps each after a slash. */
const isPointer = (v: unknown) => typeof v === 'string' && (v === '' || v.startsWith('/'));

/**
 * Why a client edit's operations are no JSON Patch the controller could have
 * written (it logs only edits that applied), or undefined: an edit that is
 * none would do nothing on replay, unsaid.
 */
function patchProblem(delta: readonly unknown[]): string | undefined {
  for (let i = 0; i < delta.length; i++) {
    const op = delta[i];
    const at = `a state_edit entry's operation ${i}`;
    if (!isObject(op) || typeof op.op !== 'string' || !PATCH_OPS.has(op.op))
      return `${at} is no JSON Patch operation: its \`op\` is ${JSON.stringify(isObject(op) ? op.op : op)?.slice(0, 40)}`;
    if (!isPointer(op.path)) return `${at} (${op.op}) needs a \`path\` that is a JSON Pointer`;
    if ((op.op === 'move' || op.op === 'copy') && !isPointer(op.from)) return `${at} (${op.op}) needs a \`from\` that is a JSON Pointer`;
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) return `${at} (${op.op}) needs a \`value\``;
  }
  return undefined;
}
