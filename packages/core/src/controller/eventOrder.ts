/**
 * The order of a saved session's event lines, by the index each gives:
 * `parseSession` keeps the best run of them whose indexes grow (the most
 * lines, less the gaps it leaves), and refuses each line left out of it
 * (repeated, moved, swapped, pasted from elsewhere), however many lines the
 * damage spans. A gap (lines lost) that the file goes on from is kept.
 */

import type { Refusals } from '../jsonLines.js';
import type { SessionLineProblem } from './sessionFile.js';
import type { SessionEntry } from './sessionLog.js';

/**
 * Judges the index of each event line of a session file, in order; `reset` at a reset entry. Which lines are kept is
 * known only once every event line up to the next reset (or the end) is read: `kept` gives the entries without the
 * ones refused, their events renumbered from 0 after each reset, and names the lines refused.
 */
export function eventOrder(refused: Refusals<SessionLineProblem>) {
  /** The event lines since the last reset: their indexes, their line numbers, and where their entries are. */
  let indexes: number[] = [];
  let lines: number[] = [];
  let ats: number[] = [];
  let items = false;
  /** Where the entries refused are. */
  const dropped = new Set<number>();
  /** Refuses the lines since the last reset that the best growing run leaves out, each named by the line kept before it. */
  const judge = (): void => {
    const keep = bestGrowingRun(indexes);
    let before: number | undefined;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i] as number;
      if (keep[i]) {
        before = index;
        continue;
      }
      const what =
        before !== undefined && index <= before
          ? `an event entry whose index ${index} does not follow the one before it (${before}): a line repeated or out of order`
          : `an event entry whose index ${index} runs ahead of the lines after it: a line out of place`;
      const line = lines[i] as number;
      refused.add(line, 'OUT_OF_ORDER', items ? `item ${line}: ${what}` : what);
      dropped.add(ats[i] as number);
    }
    indexes = [];
    lines = [];
    ats = [];
  };
  return {
    /** Notes an event line with this index, to be entry `at`. */
    take(index: number, line: number, item: boolean, at: number): void {
      indexes.push(index);
      lines.push(line);
      ats.push(at);
      items = item;
    },
    reset(): void {
      judge();
    },
    /** Judges the event lines since the last reset, as `reset` does; returns how many entries are refused so far. */
    judged(): number {
      judge();
      return dropped.size;
    },
    kept(entries: SessionEntry[]): SessionEntry[] {
      judge();
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

/**
 * Which of `indexes` to keep: a run of them that grows strictly, the one that keeps the most lines less the gaps it
 * leaves (a line that does not follow the one kept before it, index + 1). A gap counts as one line: a run of lines
 * far ahead that the lines after it go on without (a block pasted from further on, any number of lines each jumping
 * ahead) is refused, and a gap the file goes on from (lines lost) is kept over a stray line from before it. Of runs as
 * good, the one keeping more lines, then the one whose lines come first (of two lines swapped, the first). A file in
 * order, gaps or none, is kept whole; any other is judged in n log n (a Fenwick tree of the best run ending below each
 * index).
 */
function bestGrowingRun(indexes: readonly number[]): boolean[] {
  const n = indexes.length;
  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) inOrder = (indexes[i] as number) > (indexes[i - 1] as number);
  if (inOrder) return new Array<boolean>(n).fill(true);
  const values = [...new Set(indexes)].sort((a, b) => a - b);
  const rank = new Map(values.map((v, i) => [v, i + 1]));
  /** The best run ending at each line: its worth (lines less gaps), its lines, and the line before it (-1: none). */
  const worth = new Float64Array(n);
  const kept = new Float64Array(n);
  const prev = new Int32Array(n).fill(-1);
  /** Whether the run ending at line `a` is better than the one ending at line `b` (-1: none). */
  const better = (a: number, b: number) =>
    b === -1 ||
    (worth[a] as number) > (worth[b] as number) ||
    (worth[a] === worth[b] && ((kept[a] as number) > (kept[b] as number) || (kept[a] === kept[b] && a < b)));
  /** A Fenwick tree over the ranks of the indexes: the best run ending at an index of rank up to each. */
  const tree = new Int32Array(values.length + 1).fill(-1);
  /** The best run ending at each index: the one the line indexed next goes on from without a gap. */
  const atIndex = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const index = indexes[i] as number;
    let below = -1;
    for (let r = (rank.get(index) as number) - 1; r > 0; r -= r & -r) {
      const at = tree[r] as number;
      if (at !== -1 && better(at, below)) below = at;
    }
    // Alone, after the best run below it (with a gap), or after the line just before it (without).
    worth[i] = 1;
    kept[i] = 1;
    const extend = (from: number, gap: number) => {
      const w = (worth[from] as number) + 1 - gap;
      const k = (kept[from] as number) + 1;
      if (w > (worth[i] as number) || (w === worth[i] && (k > (kept[i] as number) || (k === kept[i] && from < (prev[i] as number))))) {
        worth[i] = w;
        kept[i] = k;
        prev[i] = from;
      }
    };
    if (below !== -1) extend(below, 1);
    const next = atIndex.get(index - 1);
    if (next !== undefined) extend(next, 0);
    const same = atIndex.get(index);
    if (same === undefined || better(i, same)) atIndex.set(index, i);
    for (let r = rank.get(index) as number; r < tree.length; r += r & -r) if (better(i, tree[r] as number)) tree[r] = i;
  }
  let end = 0;
  for (let i = 1; i < n; i++) if (better(i, end)) end = i;
  const keep = new Array<boolean>(n).fill(false);
  for (let i = n === 0 ? -1 : end; i !== -1; i = prev[i] as number) keep[i] = true;
  return keep;
}
