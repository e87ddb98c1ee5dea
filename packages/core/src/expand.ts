import { error, warning } from './diagnostics.js';
import type { Diagnostic } from './model.js';
import type { AgUiEvent, EventOf, ThinkingEvent, UnknownEvent, ValidatedEvent } from './protocol.js';

/**
 * An event after expansion: no `*_CHUNK` and no retired `THINKING_*` remain
 * (a REASONING_START made from a THINKING_START keeps its `title`).
 */
export type ExpandedEvent = Exclude<AgUiEvent, { type: ChunkType }> | (EventOf<'REASONING_START'> & { title?: string }) | UnknownEvent;
type ChunkType = 'TEXT_MESSAGE_CHUNK' | 'TOOL_CALL_CHUNK' | 'REASONING_MESSAGE_CHUNK';

export interface ExpandResult {
  events: ExpandedEvent[];
  diagnostics: Diagnostic[];
}

export interface Expander {
  /** Expands one validated event (with its arrival index) into zero or more events. */
  push(event: ValidatedEvent, index: number): ExpandResult;
  /**
   * Whether `push(event)` would give back just `event`, with no diagnostic and
   * nothing changed in the expander (no chunk stream open, and not an event
   * that expands or opens a run): the caller may then use the event as it is.
   */
  passes(event: ValidatedEvent): boolean;
  /** An expander in the state this one is in, which goes on apart from it. */
  fork(): Expander;
}

/** What an expander holds between events (see `fork`). */
interface ExpanderState {
  lanes: ReadonlyMap<string, OpenStream>;
  warnedRetired: ReadonlySet<string>;
  runId: string;
  thinkingCount: number;
  thinkingSpan: string | undefined;
  thinkingMessage: string | undefined;
}

type OpenStream =
  | { kind: 'text'; id: string; role: string; name?: string; subagentRunId?: string }
  | { kind: 'tool'; id: string; name: string; parentMessageId?: string; subagentRunId?: string }
  | { kind: 'reasoning'; id: string; subagentRunId?: string };

const END_OF: Record<OpenStream['kind'], 'TEXT_MESSAGE_END' | 'TOOL_CALL_END' | 'REASONING_MESSAGE_END'> = {
  text: 'TEXT_MESSAGE_END',
  tool: 'TOOL_CALL_END',
  reasoning: 'REASONING_MESSAGE_END',
};

/**
 * Creates the stateful expander of one event stream:
 *
 * - `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK`
 *   become START / CONTENT (ARGS) / END. A chunk with an id opens a chunk
 *   stream in its lane (the lane is the `subagentRunId`, or the main agent); a
 *   chunk without an id continues the open one. Any other event of the lane
 *   closes it (RAW, an activity, an encrypted reasoning value and a
 *   subagent's start stand aside), a run's start or terminal and a
 *   MESSAGES_SNAPSHOT close every lane, and a subagent's terminal closes its
 *   own. A continuing chunk without `delta`
 *   that carries metadata becomes an empty CONTENT (ARGS) carrying it, so
 *   that the metadata reaches the message (call).
 * - The retired `THINKING_*` events become `REASONING_*`, with a warning;
 *   THINKING_START's `title` stays on the REASONING_START.
 *
 * @example
 * const expander = createExpander();
 * const { events } = expander.push({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' }, 0);
 * // events: TEXT_MESSAGE_START m1, TEXT_MESSAGE_CONTENT m1 "Hi"
 */
export function createExpander(from?: ExpanderState): Expander {
  // An open stream is never changed once made: the maps of a fork may share them.
  const lanes = new Map<string, OpenStream>(from?.lanes);
  const warnedRetired = new Set<string>(from?.warnedRetired);
  let runId = from?.runId ?? 'run';
  let thinkingCount = from?.thinkingCount ?? 0;
  let thinkingSpan = from?.thinkingSpan;
  let thinkingMessage = from?.thinkingMessage;

  function closeLane(lane: string, out: ExpandedEvent[]) {
    const open = lanes.get(lane);
    if (!open) return;
    lanes.delete(lane);
    const key = open.kind === 'tool' ? 'toolCallId' : 'messageId';
    out.push(withLane({ type: END_OF[open.kind], [key]: open.id }, open.subagentRunId) as ExpandedEvent);
  }

  function closeAll(out: ExpandedEvent[]) {
    for (const lane of [...lanes.keys()]) closeLane(lane, out);
  }

  function expandChunk(event: EventOf<ChunkType>, index: number, out: ExpandedEvent[], diagnostics: Diagnostic[]) {
    const lane = event.subagentRunId ?? '';
    const open = lanes.get(lane);
    const kind = event.type === 'TEXT_MESSAGE_CHUNK' ? 'text' : event.type === 'TOOL_CALL_CHUNK' ? 'tool' : 'reasoning';
    const id = event.type === 'TOOL_CALL_CHUNK' ? event.toolCallId : event.messageId;
    const base = carry(event);
    let stream = open && open.kind === kind && (id === undefined || id === open.id) ? open : undefined;
    // A chunk that continues a stream with metadata and no text still says something: an empty delta carries it.
    const delta = event.delta ?? (stream && event.metadata !== undefined ? '' : undefined);
    if (!stream) {
      if (id === undefined) {
        const field = kind === 'tool' ? 'toolCallId' : 'messageId';
        diagnostics.push(
          error(
            index,
            event.type,
            'CHUNK_WITHOUT_ID',
            `First ${event.type} must have a ${field}: there is no open chunk stream to continue; chunk dropped.`,
          ),
        );
        return;
      }
      // Refused before it ends anything: a chunk dropped leaves the stream it would have closed open as it was.
      if (event.type === 'TOOL_CALL_CHUNK' && event.toolCallName === undefined) {
        diagnostics.push(
          error(index, event.type, 'CHUNK_WITHOUT_NAME', `First TOOL_CALL_CHUNK must have a toolCallName (call ${id}); chunk dropped.`),
        );
        return;
      }
      closeLane(lane, out);
      if (event.type === 'TOOL_CALL_CHUNK') {
        const name = event.toolCallName as string;
        stream = {
          kind: 'tool',
          id,
          name,
          ...opt('parentMessageId', event.parentMessageId),
          ...opt('subagentRunId', event.subagentRunId),
        };
        out.push({
          ...base,
          type: 'TOOL_CALL_START',
          toolCallId: id,
          toolCallName: name,
          ...opt('parentMessageId', event.parentMessageId),
        } as ExpandedEvent);
      } else if (event.type === 'TEXT_MESSAGE_CHUNK') {
        stream = {
          kind: 'text',
          id,
          role: event.role ?? 'assistant',
          ...opt('name', event.name),
          ...opt('subagentRunId', event.subagentRunId),
        };
        out.push({ ...base, type: 'TEXT_MESSAGE_START', messageId: id, role: stream.role, ...opt('name', event.name) } as ExpandedEvent);
      } else {
        stream = { kind: 'reasoning', id, ...opt('subagentRunId', event.subagentRunId) };
        out.push({ ...base, type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning' } as ExpandedEvent);
      }
      lanes.set(lane, stream);
    } else {
      checkContinuation(stream, event, index, diagnostics);
    }
    if (delta === undefined) return;
    if (event.type === 'TOOL_CALL_CHUNK') out.push({ ...base, type: 'TOOL_CALL_ARGS', toolCallId: stream.id, delta } as ExpandedEvent);
    else if (event.type === 'TEXT_MESSAGE_CHUNK')
      out.push({ ...base, type: 'TEXT_MESSAGE_CONTENT', messageId: stream.id, delta } as ExpandedEvent);
    else out.push({ ...base, type: 'REASONING_MESSAGE_CONTENT', messageId: stream.id, delta } as ExpandedEvent);
  }

  function translateThinking(event: ThinkingEvent, index: number, out: ExpandedEvent[], diagnostics: Diagnostic[]) {
    if (!warnedRetired.has(event.type)) {
      warnedRetired.add(event.type);
      diagnostics.push(
        warning(index, event.type, 'RETIRED_EVENT', `${event.type} is retired in AG-UI 1.0; read as its REASONING_* equivalent.`),
      );
    }
    const base = carry(event as unknown as AgUiEvent);
    const openMessage = () => {
      thinkingMessage = `${runId}-thinking-${++thinkingCount}`;
      out.push({ ...base, type: 'REASONING_MESSAGE_START', messageId: thinkingMessage, role: 'reasoning' } as ExpandedEvent);
      return thinkingMessage;
    };
    switch (event.type) {
      case 'THINKING_START':
        thinkingSpan = `${runId}-thinking-span-${++thinkingCount}`;
        out.push({ ...base, type: 'REASONING_START', messageId: thinkingSpan, ...opt('title', event.title) } as ExpandedEvent);
        return;
      case 'THINKING_TEXT_MESSAGE_START':
        openMessage();
        return;
      case 'THINKING_TEXT_MESSAGE_CONTENT': {
        const id = thinkingMessage ?? openMessage();
        out.push({ ...base, type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta: event.delta ?? '' } as ExpandedEvent);
        return;
      }
      case 'THINKING_TEXT_MESSAGE_END':
        if (thinkingMessage) out.push({ ...base, type: 'REASONING_MESSAGE_END', messageId: thinkingMessage } as ExpandedEvent);
        thinkingMessage = undefined;
        return;
      case 'THINKING_END':
        if (thinkingSpan) out.push({ ...base, type: 'REASONING_END', messageId: thinkingSpan } as ExpandedEvent);
        thinkingSpan = undefined;
        return;
    }
  }

  return {
    fork: () => createExpander({ lanes, warnedRetired, runId, thinkingCount, thinkingSpan, thinkingMessage }),
    passes(event) {
      return lanes.size === 0 && passesThrough(event.type);
    },
    push(event, index) {
      const type = event.type;
      // Nearly every event passes through as it is, closing nothing: one event out, no diagnostics.
      if (lanes.size === 0 && passesThrough(type)) return { events: [event as ExpandedEvent], diagnostics: [] };
      const out: ExpandedEvent[] = [];
      const diagnostics: Diagnostic[] = [];
      if (type === 'TEXT_MESSAGE_CHUNK' || type === 'TOOL_CALL_CHUNK' || type === 'REASONING_MESSAGE_CHUNK') {
        expandChunk(event as EventOf<ChunkType>, index, out, diagnostics);
      } else if (type.startsWith('THINKING_') && THINKING.has(type)) {
        translateThinking(event as ThinkingEvent, index, out, diagnostics);
      } else if (STANDS_ASIDE.has(type)) {
        out.push(event as ExpandedEvent);
      } else {
        if (type === 'RUN_STARTED' || type === 'RUN_FINISHED' || type === 'RUN_ERROR' || type === 'MESSAGES_SNAPSHOT') {
          closeAll(out);
          if (type === 'RUN_STARTED') runId = String((event as EventOf<'RUN_STARTED'>).runId);
        } else {
          const sub = (event as { subagentRunId?: unknown }).subagentRunId;
          const lane = typeof sub === 'string' ? sub : '';
          const open = lanes.get(lane);
          if (open && isOwnEnd(open, event)) lanes.delete(lane);
          else closeLane(lane, out);
        }
        out.push(event as ExpandedEvent);
      }
      return { events: out, diagnostics };
    },
  };
}

/**
 * Whether an event of `type` comes out of an expander with no open chunk
 * stream as it went in (and changes nothing in it): any but a chunk, a
 * THINKING_* event and RUN_STARTED. Tested on the string's ends rather than
 * looked up in a set, which would hash every new type string.
 */
function passesThrough(type: string): boolean {
  return !type.endsWith('_CHUNK') && !type.startsWith('THINKING_') && type !== 'RUN_STARTED';
}

/**
 * Events that say nothing about the message or call a chunk stream is writing
 * (a raw passthrough, an activity, an encrypted reasoning value, a subagent's
 * start), so an open stream goes on across them, as in `@ag-ui/client`.
 */
const STANDS_ASIDE = new Set(['RAW', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'REASONING_ENCRYPTED_VALUE', 'SUBAGENT_STARTED']);

const THINKING = new Set([
  'THINKING_START',
  'THINKING_END',
  'THINKING_TEXT_MESSAGE_START',
  'THINKING_TEXT_MESSAGE_CONTENT',
  'THINKING_TEXT_MESSAGE_END',
]);

function isOwnEnd(open: OpenStream, event: ValidatedEvent): boolean {
  if (event.type !== END_OF[open.kind]) return false;
  const id = open.kind === 'tool' ? (event as { toolCallId?: unknown }).toolCallId : (event as { messageId?: unknown }).messageId;
  return id === open.id;
}

function checkContinuation(stream: OpenStream, event: EventOf<ChunkType>, index: number, diagnostics: Diagnostic[]) {
  const conflict = (field: string, got: string, want: string | undefined) =>
    diagnostics.push(
      error(
        index,
        event.type,
        'CHUNK_CONFLICT',
        `${event.type} ${field} '${got}' does not match the open stream's ${field} '${want ?? '(none)'}' (${stream.id}); the chunk's content is kept.`,
      ),
    );
  if (stream.kind === 'text' && event.type === 'TEXT_MESSAGE_CHUNK' && event.role !== undefined && event.role !== stream.role)
    conflict('role', event.role, stream.role);
  if (stream.kind === 'tool' && event.type === 'TOOL_CALL_CHUNK') {
    if (event.toolCallName !== undefined && event.toolCallName !== stream.name) conflict('toolCallName', event.toolCallName, stream.name);
    if (event.parentMessageId !== undefined && event.parentMessageId !== stream.parentMessageId)
      conflict('parentMessageId', event.parentMessageId, stream.parentMessageId);
  }
}

/** The base fields a synthesised event inherits from the chunk it came from. */
function carry(event: AgUiEvent): Record<string, unknown> {
  const base: Record<string, unknown> = {};
  if (event.timestamp !== undefined) base.timestamp = event.timestamp;
  if (event.metadata !== undefined) base.metadata = event.metadata;
  if ('subagentRunId' in event && event.subagentRunId !== undefined) base.subagentRunId = event.subagentRunId;
  return base;
}

function withLane(event: Record<string, unknown>, subagentRunId: string | undefined): Record<string, unknown> {
  if (subagentRunId !== undefined) event.subagentRunId = subagentRunId;
  return event;
}

/** `{ [key]: value }` when value is defined, `{}` otherwise (for exactOptionalPropertyTypes). */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
