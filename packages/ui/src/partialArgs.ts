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
 * writing it back gives `text` again, white space aside; otherwise `text` as
 * it came, its direction controls escaped (JSON holds them in strings only:
 * the same JSON). Read and written again, `1e309` becomes `null`, a 20-digit
 * number is rounded and of a key given twice only the last is kept: what is
 * shown (an approval's arguments) is what the agent sent.
 */
export function shownJson(value: unknown, text: string): string {
  if (typeof value === 'string') return value;
  let flat: string | undefined;
  try {
    flat = JSON.stringify(value);
  } catch {
    return escapeDirection(text);
  }
  return flat === withoutSpace(text) ? pretty(value, text) : escapeDirection(text);
}

/** Parsed arguments as shown: complete ones as `shownJson` shows them, streaming or cut ones (no whole text to keep) indented. */
export function argsShown(view: Extract<ArgsView, { kind: 'parsed' }>, text: string): string {
  return view.partial || view.incomplete ? pretty(view.value, text) : shownJson(view.value, text);
}

/** JSON text without the white space between its tokens (what `JSON.stringify` writes without indenting). */
function withoutSpace(json: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      out += json.slice(from, i);
      from = i + 1;
    }
  }
  return out + json.slice(from);
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
