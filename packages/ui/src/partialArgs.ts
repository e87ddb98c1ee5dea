import type { ToolCallRecord } from '@aguikit/core';
import { Allow, parse } from 'partial-json';
import { useRef } from 'react';

export type ArgsView =
  | { kind: 'empty' }
  | { kind: 'parsed'; value: unknown; partial: boolean }
  | { kind: 'raw'; text: string; error?: string };

const GROWTH = 1.25;

/**
 * The arguments of a call as they stream, parsed leniently. Re-parsing the
 * whole text on every delta would cost O(L²) for L characters, so while the
 * call streams the text is re-parsed only when it has grown by a quarter
 * since the last parse (O(L) in total); once complete it is shown exactly.
 */
export function useArgsView(call: Pick<ToolCallRecord, 'argsText' | 'args' | 'argsError' | 'status'> | undefined): ArgsView {
  const last = useRef<{ length: number; view: ArgsView }>({ length: 0, view: { kind: 'empty' } });
  if (!call || call.argsText === '') return { kind: 'empty' };
  if (call.args !== undefined) return { kind: 'parsed', value: call.args, partial: false };
  if (call.argsError !== undefined) return { kind: 'raw', text: call.argsText, error: call.argsError };
  const text = call.argsText;
  if (text.length < last.current.length || text.length >= Math.max(1, last.current.length * GROWTH)) {
    let view: ArgsView;
    try {
      view = { kind: 'parsed', value: parse(text, Allow.ALL) as unknown, partial: true };
    } catch {
      view = { kind: 'raw', text };
    }
    last.current = { length: text.length, view };
  }
  return last.current.view;
}

/** Pretty JSON for display; never throws (cycles and BigInt cannot occur in parsed JSON). */
export function pretty(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
}
