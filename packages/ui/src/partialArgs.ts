'use client';

import type { ArgsErrorCode, ToolCallRecord } from '@aguikit/core';
import { Allow, parse } from 'partial-json';
import * as React from 'react';

export type ArgsView =
  | { kind: 'empty' }
  /** `partial` while the call streams; `incomplete` once it stopped before its arguments were whole (its run ended). */
  | { kind: 'parsed'; value: unknown; partial: boolean; incomplete?: true }
  /** `error`: why complete arguments are kept as text (`code`), in the parser's own words when they are not JSON. */
  | { kind: 'raw'; text: string; error?: string; code?: ArgsErrorCode };

const GROWTH = 1.25;

/**
 * partial-json sets members by assignment, so a key named `__proto__` would
 * set its object's prototype rather than be a key: such a key is parsed
 * under a stand-in name (a NUL no agent's key begins with) and given its name
 * back after, as JSON.parse keeps it for the complete arguments.
 */
const PROTO_KEY = /(?<!\\)"__proto__"(?=\s*:)/g;
const STAND_IN = '\u0000aguikit:__proto__';

function withProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = withProtoKeys(value[i]);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    Object.defineProperty(out, key === STAND_IN ? '__proto__' : key, {
      value: withProtoKeys(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** The arguments as far as they came, leniently parsed. */
function parsePartial(text: string): unknown {
  if (!PROTO_KEY.test(text)) return parse(text, Allow.ALL);
  PROTO_KEY.lastIndex = 0;
  return withProtoKeys(parse(text.replace(PROTO_KEY, '"\\u0000aguikit:__proto__"'), Allow.ALL));
}

/** What the partial view of a streaming call remembers between renders: the length it last parsed, and that parse. */
export interface ArgsViewMemo {
  readonly length: number;
  readonly view: ArgsView;
}

/** The memo before any parse. */
export const EMPTY_ARGS_MEMO: ArgsViewMemo = { length: 0, view: { kind: 'empty' } };

/**
 * The policy behind `useArgsView`, as a pure function: the view of `call`'s
 * arguments given what was parsed before, and the memo to keep (`memo`
 * itself when nothing was re-parsed). While the call streams, the text is
 * re-parsed leniently only when it has grown by a quarter since the last
 * parse, or shrunk (another call); complete arguments are shown exactly.
 *
 * @example
 * let memo = EMPTY_ARGS_MEMO;
 * for (const call of snapshots) ({ view, memo } = argsView(call, memo));
 */
export function argsView(
  call: Pick<ToolCallRecord, 'argsText' | 'args' | 'argsError' | 'argsErrorCode' | 'status'> | undefined,
  memo: ArgsViewMemo,
): { view: ArgsView; memo: ArgsViewMemo } {
  if (!call || call.argsText === '') return { view: { kind: 'empty' }, memo };
  if (call.args !== undefined) return { view: { kind: 'parsed', value: call.args, partial: false }, memo };
  if (call.argsError !== undefined)
    return {
      view: { kind: 'raw', text: call.argsText, error: call.argsError, ...(call.argsErrorCode ? { code: call.argsErrorCode } : {}) },
      memo,
    };
  const text = call.argsText;
  // A call no longer streaming without whole arguments was cut off (its run ended): all it received, parsed once.
  const streaming = call.status === 'declared' || call.status === 'args_streaming';
  const stale = !streaming && (text.length !== memo.length || memo.view.kind !== 'parsed' || !memo.view.incomplete);
  if (stale || text.length < memo.length || text.length >= Math.max(1, memo.length * GROWTH)) {
    let view: ArgsView;
    try {
      const value = parsePartial(text);
      view = streaming ? { kind: 'parsed', value, partial: true } : { kind: 'parsed', value, partial: false, incomplete: true };
    } catch {
      view = { kind: 'raw', text };
    }
    return { view, memo: { length: text.length, view } };
  }
  return { view: memo.view, memo };
}

/**
 * The arguments of a call as they stream, parsed leniently. Re-parsing the
 * whole text on every delta would cost O(L²) for L characters, so while the
 * call streams the text is re-parsed only when it has grown by a quarter
 * since the last parse (O(L) in total); once complete it is shown exactly.
 * The policy is `argsView`; this hook keeps its memo across renders.
 */
export function useArgsView(
  call: Pick<ToolCallRecord, 'argsText' | 'args' | 'argsError' | 'argsErrorCode' | 'status'> | undefined,
): ArgsView {
  const last = React.useRef<ArgsViewMemo>(EMPTY_ARGS_MEMO);
  const { view, memo } = argsView(call, last.current);
  last.current = memo;
  return view;
}

/**
 * Pretty JSON for display, its direction controls escaped (`jsonText`), or
 * `text` (what it was parsed from) when it cannot be written back: a value
 * parsed from text nested thousands deep overflows `JSON.stringify`. Never
 * throws.
 */
export function pretty(value: unknown, text = ''): string {
  if (typeof value === 'string') return value;
  try {
    return jsonText(value, 2) ?? String(value);
  } catch {
    return text;
  }
}

/**
 * `value`, parsed from the JSON `text`, as shown: indented (`pretty`) where
 * it reads as `text` (`readsAsSent`); otherwise `text` as it came, its
 * direction controls escaped (JSON holds them in strings only: the same
 * JSON). Read and written again, `1e309` becomes `null`, a 20-digit number
 * is rounded and of a key given twice only the last is kept: what is shown
 * (an approval's arguments) is what the agent sent.
 */
export function shownJson(value: unknown, text: string): string {
  if (typeof value === 'string') return value;
  return readsAsSent(value, text) ? pretty(value, text) : escapeDirection(text);
}

/** Parsed arguments as shown: complete ones as `shownJson` shows them, streaming or cut ones (no whole text to keep) indented. */
export function argsShown(view: Extract<ArgsView, { kind: 'parsed' }>, text: string): string {
  return view.partial || view.incomplete ? pretty(view.value, text) : shownJson(view.value, text);
}

/**
 * `argsShown` of `view` (text for a view that is not parsed), kept across
 * renders while the value and the text stay: a megabyte of arguments (a
 * file to write) is indented once, not at each render of its card or dialog.
 */
export function useArgsShown(view: ArgsView, text: string): string {
  const parsed = view.kind === 'parsed' ? view : undefined;
  const shown = view.kind === 'raw' ? view.text : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: `parsed` is a new object at each render; what it says is its value and flags.
  return React.useMemo(() => (parsed ? argsShown(parsed, text) : shown), [parsed?.value, parsed?.partial, parsed?.incomplete, text, shown]);
}

/** `readsAsSent` of the values already weighed (an object is parsed once, from one text). */
const weighed = new WeakMap<object, boolean>();

/**
 * Whether `value`, parsed from the JSON `text`, says what `text` says: written
 * again (`JSON.stringify`) it gives `text` once white space is dropped, each
 * string is written in its shortest escapes (`\u00e9` is `é`, `\/` is `/`)
 * and each number as JavaScript writes the same number (`10.0` is `10`,
 * `1E3` is `1000`). A number a double does not hold exactly (`1e309`, a
 * 20-digit id), a key given twice, or text nested deeper than
 * `JSON.stringify` goes do not read as sent.
 */
export function readsAsSent(value: unknown, text: string): boolean {
  if (typeof value === 'string') return true;
  const key = typeof value === 'object' && value !== null ? value : undefined;
  const known = key && weighed.get(key);
  if (known !== undefined) return known;
  let same: boolean;
  try {
    same = JSON.stringify(value) === writtenAgain(text);
  } catch {
    same = false;
  }
  if (key) weighed.set(key, same);
  return same;
}

const isWhite = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const inNumber = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x45 || c === 0x65;

/**
 * The JSON `text` (valid JSON) as `JSON.stringify` would write what it says:
 * without white space between tokens, strings with escapes in their
 * shortest form, numbers a double holds exactly as JavaScript writes them.
 * Any other number is kept as written, and so differs.
 */
function writtenAgain(json: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      let escaped = false;
      while (j < json.length && json.charCodeAt(j) !== 0x22) {
        if (json.charCodeAt(j) === 0x5c) {
          escaped = true;
          j++;
        }
        j++;
      }
      if (escaped) {
        out += json.slice(from, i) + JSON.stringify(JSON.parse(json.slice(i, j + 1)));
        from = j + 1;
      }
      i = j + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < json.length && inNumber(json.charCodeAt(j))) j++;
      const written = json.slice(i, j);
      const read = String(Number(written));
      if (read !== written && sameDecimal(written, read)) {
        out += json.slice(from, i) + read;
        from = j;
      }
      i = j;
    } else {
      if (isWhite(c)) {
        out += json.slice(from, i);
        from = i + 1;
      }
      i++;
    }
  }
  return out + json.slice(from);
}

/** Whether two decimal numerals name the same number (`10.0` and `10`, `1E3` and `1000`); `Infinity` names none. */
function sameDecimal(a: string, b: string): boolean {
  const x = decimalParts(a);
  return x !== undefined && x === decimalParts(b);
}

/** A numeral's sign, significant digits and exponent (`-125e-2` for `-1.250`), or undefined for what is not one. */
function decimalParts(numeral: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  const digits = (m[2] + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  const exponent = BigInt(m[4] ?? 0) - BigInt(fraction.length) + BigInt(digits.length - end);
  return `${m[1]}${digits.slice(0, end)}e${exponent}`;
}

/** The characters that set the direction of the text after them: marks, embeddings, overrides and isolates. */
const DIRECTION_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * `JSON.stringify`, with the characters that reorder text (U+202E, the
 * right-to-left override, and its kin) written as their JSON escapes
 * (`\u202e`): the same JSON, read back to the same value, but an agent's
 * value shown as JSON cannot make the keys and amounts after it paint in
 * another order, nor itself read as what it does not hold. Outside strings
 * JSON has no such characters, so only strings change. Throws where
 * `JSON.stringify` does.
 */
export function jsonText(value: unknown, space?: number): string | undefined {
  const json = JSON.stringify(value, null, space);
  return json === undefined ? undefined : escapeDirection(json);
}

/** JSON text with its direction controls written as their escapes (`\\u202e`). */
function escapeDirection(json: string): string {
  return json.replace(DIRECTION_CONTROLS, (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
