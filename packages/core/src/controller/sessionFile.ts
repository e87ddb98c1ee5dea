/**
 * The session log as a file, read: `parseSession` reads what
 * `serializeSession` (sessionWrite.ts) wrote, or a stream another tool saved,
 * naming what it cannot use and keeping the rest.
 */

import { asSessionLine } from '../eventLog.js';
import {
  inOneGo,
  inSlices,
  jsonLineSteps,
  type LineProblem,
  MAX_NAMED_LINES,
  Refusals,
  readJsonLineStream,
  type Steps,
  untyped,
  untypedObject,
} from '../jsonLines.js';
import { isObject } from '../messageShape.js';
import { entryProblem } from './entryShape.js';
import { eventOrder } from './eventOrder.js';
import type { SessionEntry } from './sessionLog.js';

/**
 * Why a line of a saved session was not read: `NOT_JSON`; `NOT_AN_ENTRY` (no
 * entry, or one missing what it needs); `OUT_OF_ORDER` (an event line left
 * out of the best run of lines whose indexes grow: repeated, moved, pasted); `REPEATED` (a user message the session
 * holds); `SECOND_SESSION` (a line of a second session in the file);
 * `NOT_A_SESSION` (the file is one JSON object that is none).
 */
export type SessionLineProblem = 'NOT_JSON' | 'NOT_AN_ENTRY' | 'OUT_OF_ORDER' | 'REPEATED' | 'SECOND_SESSION' | 'NOT_A_SESSION';

export interface ParsedSession {
  entries: SessionEntry[];
  /**
   * Lines that could not be read, with the reason (`code`, and `message` in
   * English); the other lines are kept. The first 100 are named, each; past
   * them, `refused` counts.
   */
  errors: LineProblem<SessionLineProblem>[];
  /** More lines were not read than `errors` names: how many in all. */
  refused?: number;
  /** The file was one JSON object that is neither a session nor a conformance fixture: `errors` says so, once. */
  oneObject?: true;
}

/**
 * Reads JSON lines written by `serializeSession` (or one JSON array of
 * entries; bare AG-UI events and event-log lines are agent events; an AG-UI
 * conformance fixture, one object whose `stream` lists events, is its
 * stream). A line that is not JSON or not an entry is reported and skipped
 * (the first hundred named, each, the rest counted); it never throws. An
 * agent event's content is not judged here: replaying validates it as the
 * live stream did.
 */
export function parseSession(text: string): ParsedSession;
/**
 * A file (a `Blob`, as an `<input type="file">` gives) or a stream of its
 * bytes, read as its text is, chunk by chunk: UTF-8, or UTF-16 after a byte
 * order mark. A file of JSON lines is read a line at a time, so one longer
 * than a string can be (about 512 M characters) is read too. An abort of
 * `signal` cancels the read at once (no chunk is pulled after it) and rejects
 * with the signal's reason. A file read whole (under 16 M characters) is
 * parsed in slices of a few milliseconds, the page free between them (one
 * that is a JSON array or object is first parsed in one go): an abort stops
 * that too, between two slices.
 */
export function parseSession(file: Blob | ReadableStream<Uint8Array>, options?: { signal?: AbortSignal }): Promise<ParsedSession>;
export function parseSession(file: string | Bytes, options: { signal?: AbortSignal } = {}): ParsedSession | Promise<ParsedSession> {
  if (typeof file !== 'string') return readSession(file, WHOLE_CHARACTERS, options.signal);
  return inOneGo(sessionSteps(file));
}

/** `parseSession` of a text, a step at a time. */
function* sessionSteps(text: string): Steps<ParsedSession> {
  const session = sessionReader();
  const object = untypedObject(text);
  if (!object) yield* jsonLineSteps(text, session.take, session.refused);
  else if (!Array.isArray(object.stream))
    return { entries: [], errors: [{ line: 1, code: 'NOT_A_SESSION', message: ONE_OBJECT }], oneObject: true };
  else
    for (let i = 0; i < object.stream.length; i++) {
      const problem = session.take(object.stream[i], i + 1, true);
      if (problem) session.refused.add(i + 1, problem.code, `item ${i + 1}: ${problem.message}`);
      if (i % 1024 === 1023) yield;
    }
  return yield* session.done();
}

/** A file's bytes: a `Blob`, or a stream of them. */
type Bytes = Blob | ReadableStream<Uint8Array>;

/** A file of at most this many characters (16 M) is read whole, as its text is; a longer one of JSON lines, line by line. */
const WHOLE_CHARACTERS = 2 ** 24;

/** `parseSession` of a file, one of at most `wholeCharacters` characters read whole. */
export async function readSession(file: Bytes, wholeCharacters: number, signal?: AbortSignal): Promise<ParsedSession> {
  const session = sessionReader();
  const text = await readJsonLineStream(file, session.take, session.refused, wholeCharacters, (v) => untyped(v) !== undefined, signal);
  signal?.throwIfAborted();
  // A text read whole is parsed in slices, and the order of lines read one by one judged so: the page goes on, an abort stops it.
  return inSlices(text === undefined ? session.done() : sessionSteps(text), signal);
}

/** The state of one session file being read: `take` each value read, in order, then `done`. */
function sessionReader() {
  const entries: SessionEntry[] = [];
  let events = 0;
  /** An init that did not start the file was met: what follows it, up to a reset, is a second session. */
  let second = false;
  /** The ids of the messages the client gave (init and user_message entries) since the thread started. */
  const given = new Set<string>();
  // A file of millions of lines that are no entries (the wrong .jsonl) is refused as fast as it is read: the first
  // lines refused are named, the rest counted.
  const refused = new Refusals<SessionLineProblem>(MAX_NAMED_LINES);
  const order = eventOrder(refused);
  const take = (read: unknown, line: number, item = false): { code: SessionLineProblem; message: string } | undefined => {
    // A line of an event log, or a bare AG-UI event: an agent event.
    const value = asSessionLine(read);
    const problem = entryProblem(value);
    if (problem) return { code: 'NOT_AN_ENTRY', message: problem };
    const entry = value as SessionEntry;
    if (second && entry.type !== 'reset') return { code: 'SECOND_SESSION', message: SECOND_SESSION };
    // An init anywhere else would start the thread again over what came before it (a reversed file, two sessions in
    // one): named, with the rest of its session, so that nothing of it is grafted onto the session read so far.
    if (entry.type === 'init' && entries.length > 0 && entries[entries.length - 1]?.type !== 'reset') {
      second = true;
      // No event line of the session goes on past here: its order is judged now, and its lines refused are not counted.
      const before = entries.length - order.judged();
      return {
        code: 'SECOND_SESSION',
        message: `an init entry comes first, or right after a reset: this one follows ${before} ${before === 1 ? 'entry' : 'entries'} of the session`,
      };
    }
    // A saved event entry's index grows with each event: one that does not is a line repeated or moved, which would
    // apply an event twice or out of order (refused once the file is read, see eventOrder.ts). A gap (a line lost) is
    // no reason to refuse the lines after it.
    // An event log's line (`{ index, receivedAt, event }`) gives its own index too; a bare event gives none.
    const index = value === read ? (entry as { index?: unknown }).index : isObject(read) && !('type' in read) ? read.index : undefined;
    if (entry.type === 'event' && index !== undefined) {
      // One that is no whole number (`1e400`, read as Infinity; `1.5`; a text) is the line's fault alone: refused, and
      // the lines after it are checked against the last good index, so that none of them is lost for it.
      if (!Number.isSafeInteger(index) || (index as number) < 0)
        return { code: 'NOT_AN_ENTRY', message: `an event entry's index must be a whole number from 0 up, not ${indexText(index)}` };
      order.take(index as number, line, item, entries.length);
    }
    // The live thread refuses a message under an id it holds: a second one is a line repeated, which would say nothing.
    if (entry.type === 'user_message') {
      if (given.has(entry.message.id))
        return {
          code: 'REPEATED',
          message: `a user_message entry under message id ${JSON.stringify(entry.message.id)}, which the session already holds: a line repeated`,
        };
      given.add(entry.message.id);
    }
    if (entry.type === 'init') for (const m of entry.messages ?? []) given.add(m.id);
    if (entry.type === 'reset') {
      events = 0;
      order.reset();
      second = false;
      given.clear();
    }
    // Indexes are the log's own: renumbered from 0, whatever gaps the file has.
    entries.push(entry.type === 'event' ? { ...entry, index: events++ } : entry);
    return undefined;
  };
  // The lines out of order are refused here, a slice at a time, before the lines refused are counted.
  const done = function* (): Steps<ParsedSession> {
    yield* order.judging();
    const kept = order.kept(entries);
    return refused.count > refused.errors.length
      ? { entries: kept, errors: refused.errors, refused: refused.count }
      : { entries: kept, errors: refused.errors };
  };
  return { take, refused, done };
}

const SECOND_SESSION = 'an entry of a second session (after an init that did not start the file): not read';
const ONE_OBJECT = 'the file is one JSON object, not a saved session (one entry a line) nor a list of AG-UI events';

/** A bad index as a message names it: a number as it reads, anything else by its kind. */
const indexText = (index: unknown) => (typeof index === 'number' ? String(index) : index === null ? 'null' : `a ${typeof index}`);
