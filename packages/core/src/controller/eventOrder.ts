/**
 * The order of a saved session's event lines, by the index each gives:
 * `parseSession` refuses a line repeated or moved, and keeps a gap (lines
 * lost).
 */

import type { Refusals } from '../jsonLines.js';
import type { SessionLineProblem } from './sessionFile.js';
import type { SessionEntry } from './sessionLog.js';

/** An event line kept whose index jumped ahead of the one before it: where it is in the file, and among the entries. */
interface Far {
  line: number;
  index: number;
  at: number;
  item: boolean;
}

/**
 * The most event lines in a row, each jumping ahead, that a line after them may show out of place: past these, the
 * first of them are gaps (lines lost) the file went on from, kept whatever follows.
 */
const MOST_FAR = 16;

/**
 * Judges the index of each event line of a session file, in order; `reset` at a reset entry. `kept` gives the
 * entries without those refused once lines after them were read, their events renumbered from 0 after each reset.
 */
export function eventOrder(refused: Refusals<SessionLineProblem>) {
  /** The index of the last event line kept (since the last reset). */
  let lastIndex = -1;
  /** The lines kept since the last one that went on from the one before it, each jumping ahead; `before`: the index before the first. */
  const far: Far[] = [];
  let before = -1;
  /** Where the entries refused after they were kept are. */
  const dropped = new Set<number>();
  return {
    /** Undefined when an event line with this index, to be entry `at`, is kept; else why not. */
    take(index: number, line: number, item: boolean, at: number): string | undefined {
      // A line whose index lies between the ones before a jump and the jump, nearer the one before, shows the lines
      // from that jump on out of place (`1e15`, or `1e15` then `2e15`, among lines indexed 0..100): they alone are
      // refused, not every line after them. Two lines swapped (1, 3, 2) are as far apart either way: the second is.
      const k = firstPast(far, index);
      const prev = k === 0 ? before : (far[k - 1] as Far).index;
      const next = far[k];
      if (next && index > prev && next.index - index > index - prev) {
        for (const out of far.splice(k)) {
          const what = `an event entry whose index ${out.index} runs ahead of the lines after it: a line out of place`;
          refused.add(out.line, 'OUT_OF_ORDER', out.item ? `item ${out.line}: ${what}` : what);
          dropped.add(out.at);
        }
        lastIndex = prev;
      }
      if (index <= lastIndex)
        return `an event entry whose index ${index} does not follow the one before it (${lastIndex}): a line repeated or out of order`;
      if (index === lastIndex + 1) far.length = 0;
      else {
        if (far.length === 0) before = lastIndex;
        far.push({ line, index, at, item });
        if (far.length > MOST_FAR) before = (far.shift() as Far).index;
      }
      lastIndex = index;
      return undefined;
    },
    reset(): void {
      lastIndex = -1;
      far.length = 0;
    },
    kept(entries: SessionEntry[]): SessionEntry[] {
      if (dropped.size === 0) return entries;
      const kept: SessionEntry[] = [];
      let events = 0;
      entries.forEach((e, i) => {
        if (dropped.has(i)) return;
        if (e.type === 'reset') events = 0;
        kept.push(e.type !== 'event' || e.index === events ? e : { ...e, index: events });
        if (e.type === 'event') events++;
      });
      return kept;
    },
  };
}

/** Where the first of `far` (their indexes growing) whose index is past `index` is; their length when none is. */
function firstPast(far: readonly Far[], index: number): number {
  let low = 0;
  let high = far.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((far[mid] as Far).index > index) high = mid;
    else low = mid + 1;
  }
  return low;
}
