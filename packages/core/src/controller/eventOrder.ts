/**
 * The order of a saved session's event lines, by the index each gives:
 * `parseSession` keeps the best run of them whose indexes grow (the most
 * lines, less the gaps it leaves), and refuses each line left out of it
 * (repeated, moved, swapped, pasted from elsewhere), however many lines the
 * damage spans. A gap (lines lost) that the file goes on from is kept.
 */

import { inOneGo, type Refusals, type Steps } from '../jsonLines.js';
import type { SessionLineProblem } from './sessionFile.js';
import type { SessionEntry } from './sessionLog.js';

/** The event lines of one stretch of a session (up to a reset): their indexes, line numbers, and where their entries are. */
interface Stretch {
  indexes: number[];
  lines: number[];
  ats: number[];
  items: boolean;
}

/** Lines judged between two steps: a slice of a few milliseconds. */
const STEP_LINES = 4096;

/**
 * Judges the index of each event line of a session file, in order; `reset` at a reset entry. Which lines are kept is
 * known only once every event line up to the next reset (or the end) is read: `judging` judges them a slice at a time,
 * naming the lines refused, and `kept` gives the entries without those, their events renumbered from 0 after each reset.
 */
export function eventOrder(refused: Refusals<SessionLineProblem>) {
  const stretch = (): Stretch => ({ indexes: [], lines: [], ats: [], items: false });
  /** The stretches not yet judged, the last one being read. */
  const waiting = [stretch()];
  /** Where the entries refused are. */
  const dropped = new Set<number>();
  /** Refuses the lines of a stretch that the best growing run leaves out, each named by the line kept before it. */
  function* judge({ indexes, lines, ats, items }: Stretch): Steps<void> {
    const keep = yield* bestGrowingRun(indexes);
    let before: number | undefined;
    for (let i = 0; i < indexes.length; i++) {
      if (i % STEP_LINES === STEP_LINES - 1) yield;
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
  }
  /** Judges every stretch read so far, a slice at a time. */
  function* judging(): Steps<void> {
    const stretches = waiting.splice(0, waiting.length, stretch());
    for (const s of stretches) yield* judge(s);
  }
  return {
    /** Notes an event line with this index, to be entry `at`. */
    take(index: number, line: number, item: boolean, at: number): void {
      const s = waiting[waiting.length - 1] as Stretch;
      s.indexes.push(index);
      s.lines.push(line);
      s.ats.push(at);
      s.items = item;
    },
    reset(): void {
      // A short stretch is judged at once (a slice's work at most); a long one waits to be judged a slice at a time.
      const s = waiting[waiting.length - 1] as Stretch;
      if (s.indexes.length >= STEP_LINES) waiting.push(stretch());
      else {
        inOneGo(judge(s));
        waiting[waiting.length - 1] = stretch();
      }
    },
    judging,
    /** Judges the event lines read so far at once; returns how many entries are refused so far. */
    judged(): number {
      inOneGo(judging());
      return dropped.size;
    },
    /** The entries without those refused, once `judging` is done (or `judged`). */
    kept(entries: SessionEntry[]): SessionEntry[] {
      inOneGo(judging());
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
function* bestGrowingRun(indexes: readonly number[]): Steps<ArrayLike<boolean | number>> {
  const n = indexes.length;
  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) inOrder = (indexes[i] as number) > (indexes[i - 1] as number);
  if (inOrder) return new Array<boolean>(n).fill(true);
  // The indexes met, each once, in order (typed arrays: a million lines take a few megabytes and no map).
  const values = Float64Array.from(indexes).sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (m === 0 || values[i] !== values[m - 1]) values[m++] = values[i] as number;
  /** The rank of an index among them, from 1. */
  const rankOf = (index: number) => {
    let low = 0;
    let high = m;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((values[mid] as number) < index) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
  /** The best run ending at each line: its worth (lines less gaps), its lines, and the line before it (-1: none). */
  const worth = new Float64Array(n);
  const kept = new Float64Array(n);
  const prev = new Int32Array(n).fill(-1);
  /** Whether the run ending at line `a` is better than the one ending at line `b` (-1: none). */
  const better = (a: number, b: number) =>
    b === -1 ||
    (worth[a] as number) > (worth[b] as number) ||
    (worth[a] === worth[b] && ((kept[a] as number) > (kept[b] as number) || (kept[a] === kept[b] && a < b)));
  /** The run ending at line `i` goes on from the one ending at line `from` if that is better (a gap costs a line). */
  const extend = (i: number, from: number, gap: number) => {
    const w = (worth[from] as number) + 1 - gap;
    const k = (kept[from] as number) + 1;
    if (w > (worth[i] as number) || (w === worth[i] && (k > (kept[i] as number) || (k === kept[i] && from < (prev[i] as number))))) {
      worth[i] = w;
      kept[i] = k;
      prev[i] = from;
    }
  };
  /** A Fenwick tree over the ranks of the indexes: the best run ending at an index of rank up to each. */
  const tree = new Int32Array(m + 1).fill(-1);
  /** The best run ending at the index of each rank: the one the line indexed next goes on from without a gap. */
  const atRank = new Int32Array(m + 1).fill(-1);
  for (let i = 0; i < n; i++) {
    if (i % STEP_LINES === STEP_LINES - 1) yield;
    const index = indexes[i] as number;
    const rank = rankOf(index);
    let below = -1;
    for (let r = rank - 1; r > 0; r -= r & -r) {
      const at = tree[r] as number;
      if (at !== -1 && better(at, below)) below = at;
    }
    // Alone, after the best run below it (with a gap), or after the line just before it (without).
    worth[i] = 1;
    kept[i] = 1;
    if (below !== -1) extend(i, below, 1);
    const next = rank > 1 && values[rank - 2] === index - 1 ? (atRank[rank - 1] as number) : -1;
    if (next !== -1) extend(i, next, 0);
    const same = atRank[rank] as number;
    if (same === -1 || better(i, same)) atRank[rank] = i;
    for (let r = rank; r <= m; r += r & -r) if (better(i, tree[r] as number)) tree[r] = i;
  }
  let end = 0;
  for (let i = 1; i < n; i++) if (better(i, end)) end = i;
  const keep = new Uint8Array(n);
  for (let i = n === 0 ? -1 : end; i !== -1; i = prev[i] as number) keep[i] = 1;
  return keep;
}
