/**
 * The session log as a file, written: JSON lines, one entry a line, which
 * `parseSession` (sessionFile.ts) reads back.
 */
import { inOneGo, inSlices, type Steps } from '../jsonLines.js';
import { put } from '../plainJson.js';
import { COPY_DEPTH } from '../reducer/ownJson.js';
import { thrownText } from '../thrownText.js';
import type { SessionEntry } from './sessionLog.js';

/**
 * The longest string a session is written as: V8's on a 64-bit machine (2^29 - 24 characters, about 512 M), less than
 * Firefox's or Safari's. A session longer than that is written as parts.
 */
const MOST_CHARACTERS = 2 ** 29 - 24;
/** How long a part of a session written as parts grows before the next one starts (16 M characters). */
const PART_CHARACTERS = 2 ** 24;

/**
 * How `serializeSession` writes: `parts`, as strings that follow one another,
 * which a Blob takes whatever their sum; `inSlices` (with `parts`), in slices
 * of a few milliseconds with the page free between them, which `signal` stops.
 */
export interface SerializeOptions {
  parts?: boolean;
  inSlices?: boolean;
  signal?: AbortSignal;
}

/**
 * The session as JSON lines, one entry per line: what the playground
 * downloads. An entry holding a value nested too deep for `JSON.stringify`
 * or in a cycle (an agent's hostile event, which the thread refused as
 * `TOO_DEEP`) is written cut short, still deeper than COPY_DEPTH: replayed,
 * it is refused the same way. A BigInt (which only an in-process agent can
 * send) is written as its digits, and an event that throws as it is read (a
 * getter of its own) as a text saying so.
 *
 * A session longer than a string can be (about 512 M characters, a very long
 * thread with big states) throws a RangeError that says so; with
 * `{ parts: true }` it is written as strings of at most 16 M characters each
 * (a line longer than that is a part of its own), in order, which never throws
 * and which a Blob or a stream takes as they are. An empty session has no part.
 *
 * Written at once, a million entries hold the page for seconds: with
 * `{ parts: true, inSlices: true }` it is written in slices of a few
 * milliseconds, the page free between them, and the promise gives the same
 * parts. It writes the entries the log held when called (a live log grows
 * meanwhile); an abort of `signal` stops it before its first slice or
 * between two, and rejects with the signal's reason.
 *
 * @example
 * const file = new Blob(await serializeSession(entries, { parts: true, inSlices: true }), { type: 'application/x-ndjson' });
 */
export function serializeSession(entries: readonly SessionEntry[]): string;
export function serializeSession(
  entries: readonly SessionEntry[],
  options: SerializeOptions & { parts: true; inSlices: true },
): Promise<string[]>;
export function serializeSession(entries: readonly SessionEntry[], options: SerializeOptions & { parts: true }): string[];
export function serializeSession(entries: readonly SessionEntry[], options?: SerializeOptions): string | string[] | Promise<string[]>;
export function serializeSession(entries: readonly SessionEntry[], options: SerializeOptions = {}): string | string[] | Promise<string[]> {
  if (options.parts && options.inSlices) {
    const { signal } = options;
    const steps = writeSteps(entries, entries.length, { parts: true }, PART_CHARACTERS, MOST_CHARACTERS) as Steps<string[]>;
    // Nothing is written in the caller's task: the first slice comes after it, as every other does, and a signal aborted
    // by then (before the call, or in that task) stops it before it.
    return Promise.resolve().then(() => {
      signal?.throwIfAborted();
      return inSlices(steps, signal);
    });
  }
  return writeSession(entries, options, PART_CHARACTERS, MOST_CHARACTERS);
}

/**
 * `serializeSession` with its limits given: `partCharacters`, how long a part
 * grows; `mostCharacters`, the longest text it writes as one string.
 */
export function writeSession(
  entries: readonly SessionEntry[],
  options: SerializeOptions,
  partCharacters: number,
  mostCharacters: number,
): string | string[] {
  return inOneGo(writeSteps(entries, entries.length, options, partCharacters, mostCharacters));
}

/** Entries written between two steps. */
const STEP_ENTRIES = 512;

/** `writeSession` of the first `end` entries (those the log held when asked: it may grow meanwhile), a step at a time. */
function* writeSteps(
  entries: readonly SessionEntry[],
  end: number,
  options: SerializeOptions,
  partCharacters: number,
  mostCharacters: number,
): Steps<string | string[]> {
  const parts: string[] = [];
  let lines: string[] = [];
  let length = 0;
  let total = 0;
  const close = () => {
    if (lines.length) parts.push(lines.join(''));
    lines = [];
    length = 0;
  };
  for (let i = 0; i < end; i++) {
    const line = entryLine(entries[i] as SessionEntry);
    total += line.length + 1;
    if (length + line.length + 1 > partCharacters) close();
    // A line longer than a part is one of its own (with its line end apart, should it be as long as a string can be).
    if (line.length >= partCharacters) parts.push(line, '\n');
    else {
      lines.push(line, '\n');
      length += line.length + 1;
    }
    if (i % STEP_ENTRIES === STEP_ENTRIES - 1) yield;
  }
  close();
  if (options.parts) return parts;
  if (total > mostCharacters)
    throw new RangeError(
      `The session is ${total} characters of JSON lines, longer than a string can be (${mostCharacters}): write it as parts, serializeSession(entries, { parts: true }), which a Blob takes.`,
    );
  return parts.join('');
}

function entryLine(entry: SessionEntry): string {
  try {
    return JSON.stringify(entry);
  } catch {
    try {
      // Too deep, or a cycle or a BigInt (an in-process agent's event): cut where the value is still deeper than a copy
      // takes, whatever the levels of the entry around it; a BigInt is written as its digits.
      return JSON.stringify(cutShort(entry, COPY_DEPTH + 16));
    } catch (e) {
      // Something in it throws as it is read (an in-process agent's getter, which the thread named UNREADABLE_EVENT):
      // written as a text saying so, which a replay of the file refuses in its place (NOT_AN_OBJECT).
      const { type, at } = entry;
      const index = (entry as { index?: unknown }).index;
      return JSON.stringify({ type, at, index, event: `The event could not be read: ${thrownText(e)}.` });
    }
  }
}

/** `value` with what lies deeper than `levels` objects and arrays replaced by empty arrays, and a BigInt by its digits. */
function cutShort(value: unknown, levels: number): unknown {
  if (typeof value === 'bigint') return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (levels === 0) return [];
  // A Date (or anything with toJSON) as JSON.stringify writes it, beside the BigInt that sent the entry here.
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return cutShort(toJson.call(value, ''), levels - 1);
  if (Array.isArray(value)) return value.map((item) => cutShort(item, levels - 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) put(out, key, cutShort((value as Record<string, unknown>)[key], levels - 1));
  return out;
}
