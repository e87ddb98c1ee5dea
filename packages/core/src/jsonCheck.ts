/**
 * A one-pass check of a JSON text, in time that grows as its length does
 * whatever it holds, which refuses without throwing: what jsonLines.ts reads
 * a file's lines with once one of them was refused, and the depth a text may
 * nest before JSON.parse is let near it.
 */

/**
 * How deep a JSON text read from a file may nest objects and arrays (the
 * outermost counting one): far past any value a session holds
 * (`serializeSession` writes what `JSON.stringify` can, a few thousand levels
 * in V8, and the thread refuses past MAX_JSON_DEPTH), and short of where
 * JSON.parse slows faster than the text grows (from a few hundred thousand).
 */
export const MAX_TEXT_DEPTH = 100_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
/** A bracket's closing one is two code points on: `[` `]`, `{` `}`. */
const CLOSE_ARRAY = OPEN_ARRAY + 2;
const CLOSE_OBJECT = OPEN_OBJECT + 2;

/** Whether `text` opens more than MAX_TEXT_DEPTH brackets (in strings too), found natively: it nests no deeper if not. */
export function manyBrackets(text: string): boolean {
  let count = 0;
  for (const bracket of ['[', '{'])
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++count > MAX_TEXT_DEPTH) return true;
  return false;
}

/**
 * Whether the first value of `text` nests deeper than MAX_TEXT_DEPTH, by its
 * brackets outside strings: a look, not a check (past its first value,
 * JSON.parse stops at once where the text goes wrong).
 */
export function tooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; ; i++) {
        const s = text.charCodeAt(i);
        if (s === QUOTE) break;
        if (s === BACKSLASH) i++;
        else if (Number.isNaN(s)) return false;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_TEXT_DEPTH) return true;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && --depth <= 0) return false;
  }
  return false;
}

/**
 * Why JSON.parse refuses `text` (in words, with where), or why it is not
 * read (nested deeper than MAX_TEXT_DEPTH); undefined when it is a JSON text
 * read. One pass that builds nothing: `closers` (MAX_TEXT_DEPTH long) holds
 * the closing bracket of each object and array open, the innermost last.
 */
export function jsonProblem(text: string, closers: Uint8Array): string | undefined {
  let depth = 0;
  let i = 0;
  for (;;) {
    // A value.
    i = space(text, i);
    const c = text.charCodeAt(i);
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === MAX_TEXT_DEPTH) return `nested deeper than ${MAX_TEXT_DEPTH} levels of objects and arrays: not read`;
      i = space(text, i + 1);
      if (text.charCodeAt(i) === c + 2) i++;
      else {
        closers[depth++] = c + 2;
        if (c === OPEN_OBJECT) i = member(text, i);
        if (i < 0) return unexpected(text, ~i);
        continue;
      }
    } else {
      i = scalar(text, i, c);
      if (i < 0) return unexpected(text, ~i);
    }
    // After a value: the brackets it closes, then a comma before the next value, or the end of the text.
    i = space(text, i);
    while (depth > 0 && text.charCodeAt(i) === closers[depth - 1]) {
      depth--;
      i = space(text, i + 1);
    }
    if (depth === 0) return i === text.length ? undefined : unexpected(text, i);
    if (text.charCodeAt(i) !== 0x2c) return unexpected(text, i);
    i = closers[depth - 1] === CLOSE_OBJECT ? member(text, i + 1) : i + 1;
    if (i < 0) return unexpected(text, ~i);
  }
}

function unexpected(text: string, at: number): string {
  if (at >= text.length) return 'not JSON: the text ends before its value does';
  return `not JSON: unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(at) ?? 0))} at position ${at}`;
}

// Each of these reads from `i` and returns where it stopped, or `~` the position of what it could not read.

/** JSON's whitespace: space, tab, LF and CR (no other). */
function space(text: string, i: number): number {
  let at = i;
  for (let c = text.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(at)) at++;
  return at;
}

/** A member's name and its colon. */
function member(text: string, i: number): number {
  const from = space(text, i);
  if (text.charCodeAt(from) !== QUOTE) return ~from;
  const end = string(text, from);
  if (end < 0) return end;
  const colon = space(text, end);
  return text.charCodeAt(colon) === 0x3a ? colon + 1 : ~colon;
}

/** A string, a number, true, false or null (`c`: its first code unit). */
function scalar(text: string, i: number, c: number): number {
  if (c === QUOTE) return string(text, i);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number(text, i);
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
  return text.startsWith(word, i) ? i + word.length : ~i;
}

/** A run of characters a JSON string holds as they are (no quote, backslash or control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what ends the run
const PLAIN = /[^"\\\u0000-\u001f]*/y;

/** Within quotes: no control character, and only the escapes JSON has. */
function string(text: string, i: number): number {
  for (let at = i + 1; ; at++) {
    // Plain characters skipped in one step: a 100 MB string is read in a fraction of the time a character at a time takes.
    PLAIN.lastIndex = at;
    PLAIN.test(text);
    at = PLAIN.lastIndex;
    const c = text.charCodeAt(at);
    if (c === QUOTE) return at + 1;
    if (c === BACKSLASH) {
      at++;
      const escaped = text.charAt(at);
      if (escaped === 'u') {
        if (!/^[0-9a-fA-F]{4}/.test(text.slice(at + 1, at + 5))) return ~(at + 1);
        at += 4;
      } else if (escaped === '' || !'"\\/bfnrt'.includes(escaped)) return ~at;
    } else if (!(c >= 0x20)) return ~at;
  }
}

/** `-`, an integer without leading zeros, then a fraction and an exponent, each if there. */
function number(text: string, i: number): number {
  let at = text.charCodeAt(i) === 0x2d ? i + 1 : i;
  at = text.charCodeAt(at) === 0x30 ? at + 1 : digits(text, at);
  if (at >= 0 && text.charCodeAt(at) === 0x2e) at = digits(text, at + 1);
  if (at >= 0 && (text.charCodeAt(at) | 0x20) === 0x65) {
    const sign = text.charCodeAt(at + 1);
    at = digits(text, sign === 0x2b || sign === 0x2d ? at + 2 : at + 1);
  }
  return at;
}

/** One digit or more. */
function digits(text: string, i: number): number {
  let at = i;
  for (let c = text.charCodeAt(at); c >= 0x30 && c <= 0x39; c = text.charCodeAt(at)) at++;
  return at === i ? ~at : at;
}
