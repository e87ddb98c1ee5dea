import { jsonProblem, MAX_TEXT_DEPTH, manyBrackets, tooDeep } from './jsonCheck.js';
import { thrownText } from './thrownText.js';

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

/** Takes one JSON value read: undefined when it is kept, else why not. */
type Take<C extends string> = (value: unknown) => { code: C; message: string } | undefined;

/**
 * How many refused lines `parseSession` names, each, before it only counts
 * them: a file of millions of lines that are no entries (the wrong .jsonl) is
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

  add(line: number, code: C | 'NOT_JSON', message: string): void {
    if (this.count++ < this.most) this.errors.push({ line, code, message });
  }
}

/**
 * Reads JSON lines: each non-blank line parsed and handed to `take` with its
 * line number, which returns a problem to report or nothing. A line that is
 * not JSON is reported; nothing throws. A leading byte order mark is skipped;
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
  const read = jsonReader();
  // A byte order mark (an editor on Windows writes one) is not part of the first line.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const items = wholeArray(body, read);
  if (items) {
    items.forEach((item, i) => {
      const problem = take(item);
      if (problem) refused.add(i + 1, problem.code, `item ${i + 1}: ${problem.message}`);
    });
    return refused.errors;
  }
  // Values pretty-printed one after another (`jq .` over JSON lines): the first line opens an object it does not close,
  // and the next goes on with a key (or closes it). A brace alone before lines of entries (a line torn, or typed) is
  // one line that is no JSON, not the start of a value that would take in the whole file.
  if (/^\s*\{[ \t]*(?:\r\n|\r|\n)\s*["}]/.test(body)) return readValues(body, take, false, read, refused);
  // An array pretty-printed and cut off: its items are such values, between its commas (the bracket is a space, so
  // every offset and line stays where it was).
  if (/^\s*\[\s*\{[ \t]*(?:\r\n|\r|\n)\s*["}]/.test(body)) return readValues(body.replace('[', ' '), take, true, read, refused);
  let opening = /^\s*\[/.test(body);
  const inArray = opening;
  // CRLF, LF or a CR alone (an old Mac editor): a JSON text holds no raw CR or LF of its own, only escaped ones. Split
  // at LF alone where there is no CR: several times faster over millions of short lines.
  const lines = body.includes('\r') ? body.split(/\r\n|\r|\n/) : body.split('\n');
  lines.forEach((line, i) => {
    let text = line;
    if (inArray) {
      text = arrayLine(line, opening, read);
      if (line.trim() !== '') opening = false;
    }
    if (text.trim() === '') return;
    const json = read(text);
    if (!json.ok) {
      refused.add(i + 1, 'NOT_JSON', json.message);
      return;
    }
    const problem = take(json.value);
    if (problem) refused.add(i + 1, problem.code, problem.message);
  });
  return refused.errors;
}

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
  if (!/^\s*\[/.test(body) || !body.trimEnd().endsWith(']')) return undefined;
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

/**
 * Reads JSON values written one after another, each over as many lines as it
 * takes: each top-level object or array is cut where its brackets close
 * (brackets inside strings aside) and handed to `take`, named by the line it
 * starts on. A value cut off by the end of the text is reported as not JSON.
 * `items`: the values are an array's, with commas between them and its
 * closing bracket after the last, which are not text between values.
 */
function readValues<C extends string>(body: string, take: Take<C>, items: boolean, read: Reader, refused: Refusals<C>): LineProblem<C>[] {
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
    const problem = take(json.value);
    if (problem) refused.add(at, problem.code, problem.message);
  };
  /** Where the line being read starts, and whether all of it before `i` is spaces and tabs. */
  let lineStart = 0;
  let blank = true;
  /** The column of the bracket that opens the value being read. */
  let indent = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
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
