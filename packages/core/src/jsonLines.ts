import { jsonProblem, MAX_TEXT_DEPTH, manyBrackets, tooDeep } from './jsonCheck.js';
import { thrownText } from './thrownText.js';
import { yieldToPage } from './yieldToPage.js';

/**
 * A line (or item) that was not read: where, why as a code a program can act
 * on, and why in words (English). `NOT_JSON`: not JSON, or nested deeper than
 * MAX_TEXT_DEPTH.
 */
export interface LineProblem<C extends string = string> {
  line: number;
  code: C | 'NOT_JSON';
  message: string;
}

/**
 * Takes one JSON value read, with the line it starts on (or, when `item`, its number among an array's items):
 * undefined when it is kept, else why not.
 */
type Take<C extends string> = (value: unknown, line: number, item?: boolean) => { code: C; message: string } | undefined;

/**
 * How many refused lines `parseSession` and `parseEventLog` name, each,
 * before they only count them: a file of millions of lines that are no entries (the wrong .jsonl) is
 * refused as fast as it is parsed, not with a record per line.
 */
export const MAX_NAMED_LINES = 100;

/** The lines of a file that were not read: the first `most` named in `errors`, each; `count`: all of them. */
export class Refusals<C extends string> {
  readonly errors: LineProblem<C>[] = [];
  count = 0;
  readonly most: number;

  constructor(most = Number.POSITIVE_INFINITY) {
    this.most = most;
  }

  /**
   * A line refused once lines after it were read (they showed it out of place) is named in the order of the file,
   * and among the first `most` lines refused even when that many after it are named: the last of them gives way.
   */
  add(line: number, code: C | 'NOT_JSON', message: string): void {
    const errors = this.errors;
    const last = errors[errors.length - 1];
    if (this.count++ >= this.most && !(last && last.line > line)) return;
    let at = errors.length;
    while (at > 0 && (errors[at - 1] as LineProblem<C>).line > line) at--;
    if (at >= this.most) return;
    errors.splice(at, 0, { line, code, message });
    if (errors.length > this.most) errors.pop();
  }
}

/**
 * Reads JSON lines: each non-blank line parsed and handed to `take` with its
 * line number, which returns a problem to report or nothing. A line that is
 * not JSON is reported; nothing throws. A byte order mark starting the text,
 * or a line (a file joined after another), is skipped;
 * a line ends with LF, CRLF or CR alone.
 * A text that is one JSON array is read item by item instead, each numbered
 * from 1 as a line would be; one that opens an array but is no whole one (cut
 * off as it was written) is read as lines, its brackets and each line's
 * trailing comma aside, so the items written one a line before the cut are kept.
 * A text whose first line opens an object it does not close, the next line
 * going on with a key, is values pretty-printed one after another (`jq .`
 * over JSON lines), read value by value;
 * so is an array cut off whose first item opens so (`JSON.stringify(x, null, 2)`).
 * Whatever the text, the time it takes grows as its length does (`jsonReader`):
 * a line nested deeper than MAX_TEXT_DEPTH is named, not read.
 * `refused` gathers the lines not read: each is named, or with a limit, the
 * first that many, the rest counted.
 */
export function readJsonLines<C extends string>(text: string, take: Take<C>, refused = new Refusals<C>()): LineProblem<C>[] {
  return inOneGo(jsonLineSteps(text, take, refused));
}

/**
 * Work done a step at a time: it yields between steps (a thousand lines or
 * so, a millisecond or two), and returns what it made.
 */
export type Steps<T> = Generator<void, T, void>;

/** The steps run all at once. */
export function inOneGo<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The work done before the page goes on, in milliseconds. */
const SLICE_MS = 10;

/**
 * The steps run in slices of a few milliseconds, the page free between them
 * (a file of 15 M characters takes half a second to parse); an abort of
 * `signal` stops them between two slices, and rejects with its reason.
 */
export async function inSlices<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - slice >= SLICE_MS) {
      await yieldToPage();
      signal?.throwIfAborted();
      slice = performance.now();
    }
  }
}

/** Lines (or items) read between two steps. */
const STEP_LINES = 1024;

/** `readJsonLines`, a step at a time. */
export function* jsonLineSteps<C extends string>(text: string, take: Take<C>, refused = new Refusals<C>()): Steps<LineProblem<C>[]> {
  const read = jsonReader();
  // A byte order mark (an editor on Windows writes one) is not part of the first line.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const items = wholeArray(body, read);
  if (items) {
    for (let i = 0; i < items.length; i++) {
      const problem = take(items[i], i + 1, true);
      if (problem) refused.add(i + 1, problem.code, `item ${i + 1}: ${problem.message}`);
      if (i % STEP_LINES === STEP_LINES - 1) yield;
    }
    return refused.errors;
  }
  // Values pretty-printed one after another (`jq .` over JSON lines): the first line opens an object it does not close,
  // and the next goes on with a key (or closes it). A brace alone before lines of entries (a line torn, or typed) is
  // one line that is no JSON, not the start of a value that would take in the whole file.
  if (matches(/^\s*\{[ \t]*(?:\r\n|\r|\n)\s*["}]/, body)) return yield* readValues(body, take, false, read, refused);
  // An array pretty-printed and cut off: its items are such values, between its commas (the bracket is a space, so
  // every offset and line stays where it was).
  if (matches(/^\s*\[\s*\{[ \t]*(?:\r\n|\r|\n)\s*["}]/, body)) return yield* readValues(body.replace('[', ' '), take, true, read, refused);
  let opening = matches(/^\s*\[/, body);
  const inArray = opening;
  // CRLF, LF or a CR alone (an old Mac editor): a JSON text holds no raw CR or LF of its own, only escaped ones. Split
  // at LF alone where there is no CR: several times faster over millions of short lines.
  const lines = body.includes('\r') ? body.split(/\r\n|\r|\n/) : body.split('\n');
  letGo();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    let text = line;
    if (inArray) {
      text = arrayLine(line, opening, read);
      if (line.trim() !== '') opening = false;
    }
    takeLine(text, i + 1, read, take, refused);
    if (i % STEP_LINES === STEP_LINES - 1) yield;
  }
  return refused.errors;
}

/** One line of JSON lines read and handed to `take`; a blank one passed over. */
function takeLine<C extends string>(text: string, line: number, read: Reader, take: Take<C>, refused: Refusals<C>): void {
  if (text.trim() === '') return;
  // A byte order mark starting a line is a file's own, another file's joined after the first (`cat a.jsonl b.jsonl`).
  const json = read(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!json.ok) {
    refused.add(line, 'NOT_JSON', json.message);
    return;
  }
  const problem = take(json.value, line);
  if (problem) refused.add(line, problem.code, problem.message);
}

/** The longest string an engine holds: V8's on a 64-bit machine (2^29 - 24 characters, about 512 M). */
const MOST_CHARACTERS = 2 ** 29 - 24;

/**
 * Reads a file (a Blob, or a stream of its bytes) chunk by chunk: UTF-8, or
 * UTF-16 after its byte order mark (an editor on Windows saves so); invalid
 * bytes are U+FFFD, as `Blob.text()` reads them. A file of at most
 * `wholeCharacters` characters is returned as one text, for `readJsonLines`;
 * so is one whose start says it is not JSON lines (an array, values pretty-printed, a first line that is no
 * JSON or of which `whole` says the file is one value), read to its end. Any
 * other is read as JSON lines, a line at a time (never more of the file held
 * than its longest line), each taken as `readJsonLines` takes it, and nothing
 * is returned: so a file longer than a string can be is read. A line longer
 * than a string can be is named, not read. It never throws on what the file
 * holds; the stream's own failure (a file gone) rejects.
 *
 * An abort of `signal` cancels the stream at once (with the signal's reason:
 * the chunk awaited ends the read, no other is pulled) and rejects with the
 * reason; so does a signal aborted already, before any chunk is pulled.
 * The read goes in slices of about 10 ms, the page free between them (a
 * chunk of many megabytes too), and an abort stops it between two.
 */
export async function readJsonLineStream<C extends string>(
  file: Blob | ReadableStream<Uint8Array>,
  take: Take<C>,
  refused: Refusals<C>,
  wholeCharacters: number,
  whole: (first: unknown) => boolean,
  signal?: AbortSignal,
): Promise<string | undefined> {
  // A Blob is not opened once the signal has aborted.
  if (!('getReader' in file)) signal?.throwIfAborted();
  const reader = ('getReader' in file ? file : file.stream()).getReader();
  const stop = () => reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop);
  try {
    if (signal?.aborted) {
      await stop();
      signal.throwIfAborted();
    }
    return await readLines(reader, signal, take, refused, wholeCharacters, whole);
  } finally {
    signal?.removeEventListener('abort', stop);
    reader.releaseLock();
  }
}

/** Characters of a chunk of a file read line by line cut at once: a few milliseconds of lines. */
const SLICE_CHARACTERS = 2 ** 20;

/** `readJsonLineStream` of what `reader` reads: the caller lets go of the reader, and cancels it on an abort. */
async function readLines<C extends string>(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal | undefined,
  take: Take<C>,
  refused: Refusals<C>,
  wholeCharacters: number,
  whole: (first: unknown) => boolean,
): Promise<string | undefined> {
  let decoder: TextDecoder | undefined;
  let start = new Uint8Array(0);
  /** The next chunk of the file as text ('' while its first two bytes are not in); undefined at its end. */
  // A stream whose chunks are all queued (a Blob in memory; Node's is one chunk) hands them over with no task between
  // them: the page goes on, and an abort comes, between slices of the reading as of the parse.
  let slice = performance.now();
  const pause = async () => {
    if (performance.now() - slice < SLICE_MS) return;
    await yieldToPage();
    slice = performance.now();
  };
  const next = async (): Promise<string | undefined> => {
    const { done, value } = await reader.read();
    await pause();
    signal?.throwIfAborted();
    if (!decoder) {
      if (!done && start.length + value.length < 2) {
        start = new Uint8Array([...start, ...value]);
        return '';
      }
      const bytes = done ? start : new Uint8Array([...start, ...value.subarray(0, 2)]);
      const label = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
      decoder = new TextDecoder(label);
      const head = decoder.decode(start, { stream: !done });
      return done ? head : head + decoder.decode(value, { stream: true });
    }
    return done ? undefined : decoder.decode(value, { stream: true });
  };
  const head: string[] = [];
  let length = 0;
  let chunk: string | undefined = '';
  // Read on to the end of the first line that is not blank: it says whether the file is JSON lines.
  let lead = false;
  let firstEnd = false;
  while (chunk !== undefined && (length <= wholeCharacters || !firstEnd) && length <= MOST_CHARACTERS) {
    chunk = await next();
    head.push(chunk ?? '');
    length += chunk?.length ?? 0;
    const from: number = lead || chunk === undefined ? 0 : chunk.search(/\S/);
    lead ||= from >= 0;
    firstEnd ||= lead && chunk !== undefined && matches(/\r|\n/, from > 0 ? chunk.slice(from) : chunk);
    letGo();
  }
  const read = jsonReader();
  // A first line longer than a string can be is no sign of what the file is: it is named, and the lines after it read.
  if (length <= MOST_CHARACTERS) {
    if (chunk === undefined) return head.join('') + (decoder?.decode() ?? '');
    if (readsWhole(head, read, whole)) {
      for (let more = await next(); more !== undefined; more = await next()) {
        head.push(more);
        length += more.length;
        if (length > MOST_CHARACTERS) {
          await reader.cancel();
          refused.add(1, 'NOT_JSON', 'not read: the file is longer than a string can be, and not JSON lines (one entry a line)');
          return undefined;
        }
      }
      return head.join('') + (decoder?.decode() ?? '');
    }
  }
  // Lines cut where the chunks are: a line's parts are kept until its end comes; a CR that ends a chunk may be the
  // first half of a CRLF, which ends one line.
  let parts: string[] = [];
  let partsLength = 0;
  let line = 1;
  let cr = false;
  const end = (rest: string) => {
    if (partsLength + rest.length > MOST_CHARACTERS) refused.add(line, 'NOT_JSON', 'not read: a line longer than a string can be');
    else takeLine(parts.length ? parts.join('') + rest : rest, line, read, take, refused);
    parts = [];
    partsLength = 0;
    line++;
  };
  const cut = (chunk: string) => {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x0a && cr) from = i + 1;
      else if (c === 0x0a || c === 0x0d) {
        end(chunk.slice(from, i));
        from = i + 1;
      }
      cr = c === 0x0d;
    }
    const rest = chunk.slice(from);
    if (partsLength + rest.length <= MOST_CHARACTERS) parts.push(rest);
    partsLength += rest.length;
  };
  /** A chunk cut a slice at a time: one of many megabytes lets the page go on, and an abort come, between them. */
  const cutInSlices = async (chunk: string) => {
    for (let at = 0; at < chunk.length; at += SLICE_CHARACTERS) {
      cut(chunk.length <= SLICE_CHARACTERS ? chunk : chunk.slice(at, at + SLICE_CHARACTERS));
      await pause();
      signal?.throwIfAborted();
    }
  };
  // The start is cut in a function of its own: nothing of it is left to the frame that waits for the rest.
  const cutHead = async () => {
    for (const piece of head.splice(0)) await cutInSlices(piece);
  };
  await cutHead();
  for (let more = await next(); more !== undefined; more = await next()) await cutInSlices(more);
  cut(decoder?.decode() ?? '');
  end('');
  return undefined;
}

/**
 * Whether a file whose start (to the end of its first line that is not blank)
 * is `head` is read whole: an array, values pretty-printed, a first line
 * that is no JSON or of which `whole` says the file is one value. `head`
 * becomes that start as one text, without its byte order mark when it is read
 * line by line. The texts looked at live no longer than this call, so that a
 * file read line by line does not keep its start while the rest is read.
 */
function readsWhole(head: string[], read: Reader, whole: (first: unknown) => boolean): boolean {
  const text = head.join('');
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const opening = body.trimStart();
  // Not a regular expression: the last text one matched is kept (RegExp.input) until another matches, the whole
  // start of the file for as long as its lines are read.
  const lf = opening.indexOf('\n');
  const cr = opening.indexOf('\r');
  const firstLength = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
  const first = firstLength < 0 ? undefined : read(opening.slice(0, firstLength), true);
  const wholly = matches(/^\s*\[/, body) || matches(/^\s*\{[ \t]*(?:\r\n|\r|\n)/, body) || !first?.ok || whole(first.value);
  head.splice(0, head.length, wholly ? text : body);
  return wholly;
}

/**
 * Whether `pattern` matches `text`. The last text a regular expression matched
 * is kept (`RegExp.input`) until another matches: a match of nothing follows
 * one, so that the whole text of a file read is not kept alive by it.
 */
function matches(pattern: RegExp, text: string): boolean {
  const yes = pattern.test(text);
  if (yes) letGo();
  return yes;
}

/** A match of nothing: `RegExp.input` lets go of the last text matched. */
const letGo = () => /^/.test('');

/** One JSON text read: its value, or why it has none (in English). */
export type ReadJson = { ok: true; value: unknown } | { ok: false; message: string };

/** Reads a JSON text; `probe`: a try that may well fail (the whole file as one array, say), no sign of a hostile file. */
type Reader = (text: string, probe?: boolean) => ReadJson;

/**
 * A reader for the texts of one file. JSON.parse is fast on JSON but slow to
 * refuse what is not (each refusal builds an error and a script to point
 * into: microseconds, so a file of millions of short bad lines took tens of
 * seconds) and slow on nesting millions deep (seconds for one 5 MB line of
 * `[`). So once a text of the file is refused, each after it is checked in
 * one pass first (`jsonProblem`), which refuses without throwing; a text
 * with enough brackets to nest too deep is looked at first (`tooDeep`, a
 * fifth to a half of what JSON.parse takes); the lines of a good file go
 * straight to JSON.parse. A text refused is named by `jsonProblem`, in the
 * same words for the first bad line as for the ones after it.
 */
function jsonReader(): Reader {
  let refused = false;
  /** The closing bracket of each object and array open where `jsonProblem` reads, made on first need. */
  let closers: Uint8Array | undefined;
  /** The first thousand refusals' words: a file of a million bad lines keeps one copy of each, not a million. */
  const said = new Map<string, string>();
  const check = (text: string) => {
    closers ??= new Uint8Array(MAX_TEXT_DEPTH);
    return jsonProblem(text, closers);
  };
  return (text, probe = false) => {
    let problem = refused || (text.length > MAX_TEXT_DEPTH && manyBrackets(text) && tooDeep(text)) ? check(text) : undefined;
    if (problem === undefined) {
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch (e) {
        problem = check(text) ?? `not JSON: ${thrownText(e)}`;
      }
    }
    if (!probe) refused = true;
    const known = said.get(problem);
    if (known === undefined && said.size < 1000) said.set(problem, problem);
    return { ok: false, message: known ?? problem };
  };
}

/**
 * One JSON text read as JSON.parse reads it, in time that grows as its length
 * does whatever it holds; one nested deeper than MAX_TEXT_DEPTH is refused.
 * It never throws.
 *
 * @example
 * const json = readJson(text);
 * if (json.ok) use(json.value);
 */
export function readJson(text: string): ReadJson {
  return jsonReader()(text, true);
}

/**
 * The items of a text that is one JSON array (a stream saved by a tool that
 * writes JSON rather than JSON lines); undefined for anything else.
 */
function wholeArray(body: string, read: Reader): unknown[] | undefined {
  // One that does not end as an array does (cut off, or lines after a bracket) is not parsed whole only to fail at its end.
  if (!matches(/^\s*\[/, body) || !body.trimEnd().endsWith(']')) return undefined;
  const json = read(body, true);
  return json.ok && Array.isArray(json.value) ? json.value : undefined;
}

/**
 * A line of an array written one item a line: its item, without the comma
 * after it (and, on the `first` line, the bracket that opens the array);
 * nothing for a bracket alone.
 */
function arrayLine(line: string, first: boolean, read: Reader): string {
  const text = line.trim();
  if (text === '[' || text === ']') return '';
  const item = first && text.startsWith('[') && !read(text, true).ok ? text.slice(1) : text;
  return item.endsWith(',') ? item.slice(0, -1) : item;
}

/** Characters of values pretty-printed read between two steps. */
const STEP_CHARACTERS = 2 ** 17;

/**
 * Reads JSON values written one after another, each over as many lines as it
 * takes: each top-level object or array is cut where its brackets close
 * (brackets inside strings aside) and handed to `take`, named by the line it
 * starts on. A value cut off by the end of the text is reported as not JSON.
 * `items`: the values are an array's, with commas between them and its
 * closing bracket after the last, which are not text between values.
 */
function* readValues<C extends string>(
  body: string,
  take: Take<C>,
  items: boolean,
  read: Reader,
  refused: Refusals<C>,
): Steps<LineProblem<C>[]> {
  let line = 1;
  let start = -1;
  let startLine = 1;
  let depth = 0;
  let inString = false;
  let strayLine = 0;
  const hand = (text: string, at: number) => {
    const json = read(text);
    if (!json.ok) {
      refused.add(at, 'NOT_JSON', json.message);
      return;
    }
    const problem = take(json.value, at);
    if (problem) refused.add(at, problem.code, problem.message);
  };
  /** Where the line being read starts, and whether all of it before `i` is spaces and tabs. */
  let lineStart = 0;
  let blank = true;
  /** The column of the bracket that opens the value being read. */
  let indent = 0;
  /** Where the next step ends: a step is about as many characters as a thousand lines. */
  let step = STEP_CHARACTERS;
  for (let i = 0; i < body.length; i++) {
    if (i >= step) {
      step = i + STEP_CHARACTERS;
      yield;
    }
    const c = body.charCodeAt(i);
    // A byte order mark starting a line is a file's own, another file's joined after the first: no part of the line.
    if (c === 0xfeff && i === lineStart) {
      lineStart = i + 1;
      continue;
    }
    if (c === 0x0a || (c === 0x0d && body.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
      blank = true;
      // No string of JSON holds a line end: a quote left open (a value cut off inside a string) ends with its line.
      inString = false;
    } else if (blank && depth > 0 && c === body.charCodeAt(start) && i - lineStart <= indent) {
      // A value opening first on its line, no deeper than the value being read (which a value printed so never holds):
      // that one was cut off (a copy torn, then more written after it). Named where it starts; the new one is read.
      hand(body.slice(start, lineStart), startLine);
      depth = 0;
      inString = false;
    }
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) blank = false;
    if (inString) {
      if (c === 0x5c && body.charCodeAt(i + 1) !== 0x0a && body.charCodeAt(i + 1) !== 0x0d) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22 && depth > 0) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (depth++ === 0) {
        start = i;
        startLine = line;
        indent = i - lineStart;
      }
    } else if ((c === 0x7d || c === 0x5d) && depth > 0 && --depth === 0) {
      hand(body.slice(start, i + 1), startLine);
      start = -1;
    } else if (depth === 0 && items && (c === 0x2c || c === 0x5d)) {
      // An item's comma, or the array's end.
    } else if (depth === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && strayLine !== line) {
      // Text between values (a quote in it too: no string starts outside a value) is no value: named once for its
      // line, and passed over.
      strayLine = line;
      refused.add(line, 'NOT_JSON', 'not JSON: text between values');
    }
  }
  if (start >= 0) hand(body.slice(start), startLine);
  return refused.errors;
}

/**
 * The file's one JSON object, when the whole text is one (a conformance
 * fixture, or a file of something else) and it has no `type`; undefined for
 * anything else, an entry or an event alone on its line among them, which
 * are read as lines.
 */
export function untypedObject(text: string): Record<string, unknown> | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!matches(/^\s*\{/, body)) return undefined;
  // Lines of entries (the first line's end stops the parse), no JSON at all, or a text nested too deep to read: read
  // as lines, each one named. Read in time that grows as the text does, whatever it holds (a hostile file too).
  const json = readJson(body);
  return json.ok ? untyped(json.value) : undefined;
}

/** An object with no `type`; one with `event` is an event log's one line, read as a line, as each of a longer log's is. */
export const untyped = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !('type' in value) && !('event' in value)
    ? (value as Record<string, unknown>)
    : undefined;
