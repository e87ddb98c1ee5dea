/**
 * The session log as a file, written: JSON lines, one entry a line, which
 * `parseSession` (sessionFile.ts) reads back.
 */
import { put } from '../plainJson.js';
import { COPY_DEPTH } from '../reducer/ownJson.js';
import { thrownText } from '../thrownText.js';
import type { SessionEntry } from './sessionLog.js';

/**
 * The session as JSON lines, one entry per line: what the playground
 * downloads. An entry holding a value nested too deep for `JSON.stringify`
 * or in a cycle (an agent's hostile event, which the thread refused as
 * `TOO_DEEP`) is written cut short, still deeper than COPY_DEPTH: replayed,
 * it is refused the same way. A BigInt (which only an in-process agent can
 * send) is written as its digits, and an event that throws as it is read (a
 * getter of its own) as a text saying so. It never throws.
 */
export function serializeSession(entries: readonly SessionEntry[]): string {
  return entries.map(entryLine).join('\n') + (entries.length ? '\n' : '');
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
