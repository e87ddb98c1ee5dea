import { type LineProblem, MAX_NAMED_LINES, Refusals, readJsonLines } from './jsonLines.js';
import { applyJsonPatch } from './jsonPatch.js';
import { isObject } from './messageShape.js';
import { MAX_JSON_DEPTH, nestsWithin } from './reducer/ownJson.js';

/** One raw event as it arrived, with its arrival index. */
export interface LoggedEvent {
  index: number;
  /** Milliseconds since the epoch when it arrived, if recorded. */
  receivedAt?: number;
  event: unknown;
}

export interface EventLog {
  /** Records a raw event (as received, valid or not) and returns its entry. */
  record(event: unknown, receivedAt?: number): LoggedEvent;
  readonly entries: readonly LoggedEvent[];
  /** The raw events in arrival order, for `replayEvents`. */
  events(): unknown[];
}

/**
 * An append-only log of the raw events of a thread, in arrival order, so a
 * session can be saved, inspected, replayed or attached to a bug report.
 *
 * @example
 * const log = createEventLog();
 * log.record(raw, Date.now());
 * const state = replayEvents(log.events());
 */
export function createEventLog(initial: readonly LoggedEvent[] = []): EventLog {
  const entries: LoggedEvent[] = [...initial];
  return {
    record(event, receivedAt) {
      const entry: LoggedEvent = receivedAt === undefined ? { index: entries.length, event } : { index: entries.length, receivedAt, event };
      entries.push(entry);
      return entry;
    },
    entries,
    events: () => entries.map((e) => e.event),
  };
}

/** Serializes entries as JSON lines, one entry per line. */
export function serializeEventLog(entries: readonly LoggedEvent[]): string {
  return entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : '');
}

export interface ParsedEventLog {
  entries: LoggedEvent[];
  /** Lines that could not be read, with the reason; the other lines are kept. The first 100 are named; past them, `refused` counts. */
  errors: LineProblem<'NOT_AN_ENTRY'>[];
  /** More lines were not read than `errors` names: how many in all. */
  refused?: number;
}

/**
 * What a line of a saved session is when it is no entry of its own: a line of
 * an event log (`serializeEventLog`: `{ event, receivedAt }`) or a bare AG-UI
 * event (an upper-case `type`), as another tool saves a stream, becomes an
 * agent event entry (its time the event's `timestamp`, else 0; 0 too for a
 * time no Date holds, such as nanoseconds). Anything else is returned as it is.
 */
export function asSessionLine(value: unknown): unknown {
  if (!isObject(value)) return value;
  // Its time when the line gives one a session can hold; else 0, as for a bare event without one (its event is kept).
  if (!('type' in value) && 'event' in value)
    return { type: 'event', at: isTime(value.receivedAt) ? value.receivedAt : 0, event: value.event, index: 0 };
  if (typeof value.type === 'string' && /^[A-Z][A-Z0-9_]*$/.test(value.type))
    return {
      type: 'event',
      at: isTime(value.timestamp) ? value.timestamp : 0,
      event: value,
      index: 0,
    };
  return value;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Milliseconds since the epoch that a Date can hold (±8.64e15): a time a session entry may carry. */
export const isTime = (value: unknown): value is number => finite(value) && Math.abs(value) <= 8.64e15;

/**
 * Reads JSON lines written by `serializeEventLog`. A bad line is reported and
 * skipped (the first hundred named, each, the rest counted, as `parseSession`
 * does); it never throws. An entry keeps the index the file gives it when
 * that is a whole number, not negative and not given before; else its index is
 * its position, or the first free one after it.
 */
export function parseEventLog(text: string): ParsedEventLog {
  const entries: LoggedEvent[] = [];
  const taken = new Set<number>();
  // Where the search for a free index resumes: it only moves on, so a file whose early lines claim the indexes later
  // lines would take is still read in linear time.
  let free = 0;
  const refused = new Refusals<'NOT_AN_ENTRY'>(MAX_NAMED_LINES);
  readJsonLines(
    text,
    (value) => {
      if (!isObject(value) || !('event' in value))
        return { code: 'NOT_AN_ENTRY' as const, message: 'not a log entry: expected an object with `event`' };
      const given = value.index;
      let index: number;
      if (Number.isSafeInteger(given) && (given as number) >= 0 && !taken.has(given as number)) index = given as number;
      else {
        free = Math.max(free, entries.length);
        while (taken.has(free)) free++;
        index = free;
      }
      taken.add(index);
      const receivedAt = finite(value.receivedAt) ? { receivedAt: value.receivedAt } : {};
      entries.push({ index, event: value.event, ...receivedAt });
      return undefined;
    },
    refused,
  );
  const errors = refused.errors;
  return refused.count > errors.length ? { entries, errors, refused: refused.count } : { entries, errors };
}

const JOINABLE: Record<string, 'messageId' | 'toolCallId'> = {
  TEXT_MESSAGE_CONTENT: 'messageId',
  REASONING_MESSAGE_CONTENT: 'messageId',
  TOOL_CALL_ARGS: 'toolCallId',
};
const PLAIN_KEYS = new Set(['type', 'messageId', 'toolCallId', 'delta', 'subagentRunId', 'timestamp']);

/**
 * Whether the base fields are valid: a joined or folded event keeps the first
 * event's, so validation must accept every part exactly as it accepts the whole.
 */
function validBase(e: Record<string, unknown>): boolean {
  const { timestamp, subagentRunId } = e;
  return (
    (timestamp === undefined || (typeof timestamp === 'number' && Number.isFinite(timestamp))) &&
    (subagentRunId === undefined || typeof subagentRunId === 'string')
  );
}

/** A delta event with nothing but its id, delta and lane: safe to join with its neighbour. */
function joinKey(e: unknown): string | undefined {
  if (!isObject(e) || typeof e.type !== 'string' || typeof e.delta !== 'string') return undefined;
  const idField = JOINABLE[e.type];
  if (!idField || typeof e[idField] !== 'string') return undefined;
  for (const k in e) if (!PLAIN_KEYS.has(k)) return undefined;
  if (!validBase(e)) return undefined;
  return `${e.type}\u0000${e[idField] as string}\u0000${(e.subagentRunId as string | undefined) ?? ''}`;
}

function stateEvent(e: unknown, type: 'STATE_SNAPSHOT' | 'STATE_DELTA'): e is Record<string, unknown> {
  if (!isObject(e) || e.type !== type) return false;
  for (const k in e) if (!['type', 'snapshot', 'delta', 'subagentRunId', 'timestamp'].includes(k)) return false;
  if (!validBase(e)) return false;
  return type === 'STATE_SNAPSHOT' ? e.snapshot !== undefined : Array.isArray(e.delta);
}

/**
 * Compacts a list of raw events without changing the state it leads to:
 * adjacent text, reasoning and argument deltas of the same message or call
 * are joined into one, and a STATE_SNAPSHOT followed by deltas that apply is
 * folded into one snapshot of the resulting document. Anything unusual
 * (extra fields, invalid events, a delta that fails) is kept as it is.
 *
 * @example
 * const small = compactEvents(log.events());
 * // replayEvents(small) has the same messages, tool calls, run and state as replayEvents(log.events())
 */
export function compactEvents(events: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const key = joinKey(e);
    if (key !== undefined) {
      let delta = (e as { delta: string }).delta;
      let j = i + 1;
      while (j < events.length && joinKey(events[j]) === key) delta += (events[j++] as { delta: string }).delta;
      out.push(j === i + 1 ? e : { ...(e as object), delta });
      i = j - 1;
      continue;
    }
    if (stateEvent(e, 'STATE_SNAPSHOT')) {
      let document = e.snapshot;
      let j = i + 1;
      for (; j < events.length; j++) {
        const next = events[j];
        if (!stateEvent(next, 'STATE_DELTA') || next.subagentRunId !== e.subagentRunId) break;
        // A snapshot nested past what the state takes is refused and desyncs the state, so the deltas after it wait:
        // it is kept as it is, with them, rather than folded into one the reducer would take. Walked only when a delta
        // would be folded into it.
        if (j === i + 1 && !nestsWithin(e.snapshot, MAX_JSON_DEPTH)) break;
        const applied = applyJsonPatch(document, next.delta as unknown[]);
        if (!applied.ok || (next.delta as unknown[]).some((op) => !isObject(op))) break;
        document = applied.document;
      }
      out.push(j === i + 1 ? e : { ...e, snapshot: document });
      i = j - 1;
      continue;
    }
    out.push(e);
  }
  return out;
}
