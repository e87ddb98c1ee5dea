/**
 * What makes a message one the thread can hold: the checks the validator
 * applies to the messages of an event, shared with `parseSession`, which
 * applies them to the messages a saved session's client entries hold. Kept
 * apart from the validator, which only the engine loads.
 */
import { describe } from './describe.js';
import { put } from './plainJson.js';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MESSAGE_ROLES = new Set(['developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning']);
const SOURCE_TYPES = new Set(['data', 'url', 'file']);
const MEDIA_PARTS = new Set(['image', 'audio', 'video', 'document']);

/** What `partProblem` says of a part whose type AG-UI 1.0 does not define: dropped by the validator, with a warning. */
export const UNKNOWN_PART = 'unknown part';

/** What is wrong with a content part at `at` (a text part without text, a media part without a source), UNKNOWN_PART, or undefined. */
export function partProblem(part: unknown, at: string): string | undefined {
  if (!isObject(part) || typeof part.type !== 'string') return `has a content part at ${at} that is not an object with a type`;
  if (part.type === 'text') return typeof part.text === 'string' ? undefined : `has a text part at ${at} without a string \`text\``;
  if (!MEDIA_PARTS.has(part.type)) return UNKNOWN_PART;
  const source = part.source;
  if (isObject(source) && SOURCE_TYPES.has(source.type as string) && typeof source.value === 'string') return undefined;
  return `has a ${part.type} part at ${at} without a valid source`;
}

/**
 * What is wrong with `message` at `at` as a message the thread keeps (no
 * string id, an unknown role, a tool message without its call's id, tool
 * calls that are not calls), or undefined. Its content is checked apart
 * (`partProblem`), as the validator drops unknown parts rather than refuse.
 */
export function messageProblem(message: unknown, at: string): string | undefined {
  if (!isObject(message)) return `has a message at ${at} that is not an object`;
  if (typeof message.id !== 'string') return `has a message at ${at} without a string \`id\``;
  if (!MESSAGE_ROLES.has(message.role as string)) return `has a message at ${at} with unknown role ${describe(message.role)}`;
  if (message.role === 'tool' && typeof message.toolCallId !== 'string')
    return `has a tool message at ${at} without a string \`toolCallId\``;
  if (message.toolCalls !== undefined && !isToolCallList(message.toolCalls))
    return `has a message at ${at} whose \`toolCalls\` are not calls with a string id, function name and arguments`;
  return undefined;
}

/**
 * `messageProblem`, and the content's: a string, or parts each of which is
 * well formed (of a type the validator knows or not), as a message that
 * never passed the validator must be.
 */
export function storedMessageProblem(message: unknown, at: string): string | undefined {
  // A history as model APIs write it: `null` for an absent member (an assistant's content beside its tool calls).
  const m = isObject(message) && (message.content === null || message.toolCalls === null) ? withoutNulls(message) : message;
  const problem = messageProblem(m, at);
  if (problem) return problem;
  const { content, role } = m as Record<string, unknown>;
  if (role === 'activity') return isObject(content) ? undefined : `has an activity message at ${at} without an object \`content\``;
  if (content === undefined || typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `has a message at ${at} whose content is neither text nor a list of parts`;
  for (let i = 0; i < content.length; i++) {
    const part = partProblem(content[i], `${at}/content/${i}`);
    if (part && part !== UNKNOWN_PART) return part;
  }
  return undefined;
}

const isToolCallList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every(
    (call) =>
      isObject(call) &&
      typeof call.id === 'string' &&
      isObject(call.function) &&
      typeof call.function.name === 'string' &&
      typeof call.function.arguments === 'string',
  );

/** The message without its null members; an own `__proto__` member stays one (never the copy's prototype). */
function withoutNulls(message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(message)) if (message[key] !== null) put(out, key, message[key]);
  return out;
}
