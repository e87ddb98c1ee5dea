import { newId } from '../ids.js';
import { isObject, storedMessageProblem } from '../messageShape.js';
import type { ThreadState } from '../model.js';
import { PROTOCOL_VERSION, type RunAgentInput, type Tool, type UserMessage } from '../protocol.js';
import { ownJson } from '../reducer/ownJson.js';
import { requestMessages } from '../toAgUiMessages.js';
import { jsonDocument } from './documentJson.js';
import { interruptsOpen, messageIdTaken, messageInvalid, requestInvalid } from './refusals.js';
import type { SessionEntryBody } from './sessionLog.js';
import { entriesOf } from './startFrom.js';
import type { Refusal, RunControllerOptions, RunRequest } from './types.js';

type Options = Pick<RunControllerOptions, 'tools' | 'context' | 'forwardedProps'>;

/** The frontend tools as the agent is told of them: name, description, parameters (the handlers stay here). */
export function toolsInput(tools: Options['tools']): Tool[] {
  return Object.entries(tools ?? {}).map(([name, t]) => ({
    name,
    description: t.description,
    ...(t.parameters ? { parameters: t.parameters } : {}),
  }));
}

/** The input of a new run on `thread`: the whole history, the shared state, the tools, and the request's context over the store's. */
export function runInput(threadId: string, thread: ThreadState, request: RunRequest, options: Options): RunAgentInput {
  const forwardedProps = request.forwardedProps ?? options.forwardedProps;
  return {
    threadId,
    runId: newId('run'),
    protocolVersion: PROTOCOL_VERSION,
    ...(thread.run.runId !== undefined ? { parentRunId: thread.run.runId } : {}),
    state: thread.sharedState.document,
    messages: requestMessages(thread),
    tools: toolsInput(options.tools),
    context: request.context ?? options.context ?? [],
    ...(forwardedProps !== undefined ? { forwardedProps } : {}),
  };
}

/**
 * Why `message` cannot be the user's message (the shape a saved session is
 * read back with: a message the log could not give back would vanish from a
 * replay), or undefined when it can.
 */
export function userMessageProblem(message: unknown): string | undefined {
  const m = isObject(message) ? message : { id: 'new', role: 'user', content: message };
  return storedMessageProblem(m, '/message') ?? (m.role !== 'user' ? 'is not a user message' : blank(m.content) ? 'is empty' : undefined);
}

/**
 * Whether well-formed content says nothing a reader sees: none, text of only spaces, zero-width spaces and joiners or
 * a word joiner, or parts that are all such text. A model API refuses an empty turn, and the user said nothing.
 */
const blank = (content: unknown): boolean =>
  typeof content === 'string'
    ? !/[^\s\u200b-\u200d\u2060]/.test(content)
    : !content || (content as { type: string; text?: string }[]).every((part) => part.type === 'text' && blank(part.text));

/** The user's message as the thread keeps it: text or content parts get an id; a whole message is taken as it is. */
export function userMessage(message: NonNullable<RunRequest['message']>): UserMessage {
  return typeof message === 'object' && !Array.isArray(message) ? message : { id: newId('msg'), role: 'user', content: message };
}

/**
 * A thread's start as the controller is made: the app's id (or a new one),
 * copies of its initial messages and document (the app changing its objects
 * later rewrites no history), or a saved log's latest start. The initial
 * messages are checked as a saved session's are: a history the thread could
 * not hold is the app's error, said now.
 */
export function threadStart<Doc>(options: RunControllerOptions<Doc>): Extract<SessionEntryBody, { type: 'init' }> {
  // A plain-JavaScript app, or options built before their source exists: said now, not as every run's NETWORK failure.
  if (typeof options?.source?.run !== 'function')
    throw new TypeError(
      "createRunController needs a `source`: an object with run(input, options) that streams the agent's events (httpSseSource({ url }), agUiAgentSource(agent), or one of your own).",
    );
  options.initialMessages?.forEach((message, i) => {
    const problem = storedMessageProblem(message, `/${i}`);
    if (problem) throw new TypeError(`createRunController: initialMessages ${problem}.`);
  });
  let start: Extract<SessionEntryBody, { type: 'init' }> = {
    type: 'init',
    threadId: options.threadId ?? newId('thread'),
    ...(options.initialMessages?.length ? { messages: ownJson(options.initialMessages) } : {}),
    // As JSON carries it, as setState takes a document: what the agent gets, and what a saved log holds.
    ...(options.initialState !== undefined ? { state: ownJson(jsonDocument(options.initialState)) } : {}),
  };
  for (const entry of entriesOf(options.log) ?? []) if (entry.type === 'init') start = entry;
  return start;
}

/** Why a run cannot start on this thread with this request: open interrupts, or a message the thread could not take. */
export function runRefusal(thread: ThreadState, request: RunRequest): Refusal | undefined {
  // What a plain-JavaScript app may pass that is no request (null, a number, content parts without their request).
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return requestInvalid(request);
  const { message } = request;
  const open = thread.interrupts.length;
  if (open) return interruptsOpen(open);
  if (message === undefined) return undefined;
  const problem = userMessageProblem(message);
  if (problem) return messageInvalid(problem);
  // A message under an id the thread holds would be dropped as a duplicate, and the run would go ahead without it.
  if (typeof message === 'object' && !Array.isArray(message) && thread.messages.byId.has(message.id)) return messageIdTaken(message.id);
  return undefined;
}

/**
 * The app's options, checked where a mistake would otherwise surface late and
 * silently: `maxFollowUps` of NaN stopped every follow-up, and 1.5 allowed
 * two. Throws a RangeError naming the option.
 */
export function checkedOptions<T extends { maxFollowUps?: number }>(options: T): T {
  const max = (options as Partial<T> | undefined)?.maxFollowUps;
  if (max !== undefined && !(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max >= 0)))
    throw new RangeError(`maxFollowUps is ${String(max)}; it must be a whole number, 0 or more (or Infinity).`);
  return options;
}
