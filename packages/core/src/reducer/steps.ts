/**
 * The open steps of a run (`run.steps`: names in start order, each once) as
 * STEP_STARTED and STEP_FINISHED change them. A name is found in O(log n),
 * not by comparing it with every open one: an agent that opens thousands of
 * steps and never finishes them (or finishes names it never opened, or
 * names the newest again and again) made each event cost O(n), and 40,000
 * steps took 8.8 s through the controller.
 *
 * A list searched a second time gets an index: a rank per name, increasing
 * along the list, so that a name is found by a binary search. Its first
 * search is a scan, which costs no more than the copy that made the list
 * outside a batch. The index is a memo of its list, the same for whoever
 * holds it: a list is written in place only while the batch in effect owns
 * it (batchOwned.ts), and only here (`withName`, `withoutName`; the open
 * reasoning spans of text.ts are such a list too), which writes its index with it; any
 * other list, and its index, are never written again (a change copies the
 * list, whose copy gets an index of its own).
 *
 * A step finished keeps its rank, which no step of the list has any more
 * (a rank is given once): a name taken out of a Map and put back, again and
 * again, lengthens the Map's chain for it until the Map grows, and a step
 * finished and started again 40,000 times among 40,000 took 9 s. The index
 * is made again from its list once the ranks of finished steps outnumber
 * the list.
 */
import { appended, claim, ownedByBatch } from '../batchOwned.js';
import type { RecordMetadata, RunState, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { entry } from './eventHelpers.js';
import { mergeMetadata, withKey } from './grow.js';

type Steps = readonly string[];

/** The rank of each name of a list (increasing along it) and of steps it no longer has; the rank the next name appended gets. */
interface Ranks {
  readonly of: Map<string, number>;
  next: number;
}

/** The ranks of `steps` by position; none when it names a step twice (a list made elsewhere). */
function ranked(steps: Steps): Ranks | undefined {
  const of = new Map<string, number>();
  for (const [i, name] of steps.entries()) of.set(name, i);
  return of.size === steps.length ? { of, next: steps.length } : undefined;
}

/** Per list: its ranks; 'scanned' once searched by a scan (the next search ranks it); 'twice' when it names a step twice. */
const indexes = new WeakMap<Steps, Ranks | 'scanned' | 'twice'>();

/** The ranks of `steps`, made on its second search. */
function ranksOf(steps: Steps): Ranks | undefined {
  const known = indexes.get(steps);
  if (known === 'twice') return undefined;
  if (known === undefined) {
    indexes.set(steps, 'scanned');
    return undefined;
  }
  if (known !== 'scanned') return known;
  const ranks = ranked(steps);
  indexes.set(steps, ranks ?? 'twice');
  return ranks;
}

/** Where `name` is in `steps`, -1 when it is not. A scan looks from both ends: what opened last or first closes, nearly always. */
function indexOf(steps: Steps, name: string): number {
  const ranks = ranksOf(steps);
  if (!ranks) {
    for (let i = 0, j = steps.length - 1; i <= j; i++, j--) {
      if (steps[j] === name) return j;
      if (steps[i] === name) return i;
    }
    return -1;
  }
  const rank = ranks.of.get(name);
  if (rank === undefined) return -1;
  let low = 0;
  for (let high = steps.length - 1; low <= high; ) {
    const middle = (low + high) >>> 1;
    const at = ranks.of.get(steps[middle] as string) as number;
    if (at === rank) return middle;
    if (at < rank) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * `list` (names, each once) with `name`, not in it, at its end: grown in place when the batch owns it, its index
 * with it. Also the open reasoning spans of a thread (text.ts).
 */
export function withName(list: Steps, name: string): Steps {
  const next = appended(list, name);
  const ranks = next === list ? indexes.get(list) : undefined;
  if (typeof ranks === 'object') ranks.of.set(name, ranks.next++);
  return next;
}

/** `list` without `name`, itself when it has none: shrunk in place when the batch owns it, else a copy. */
export function withoutName(list: Steps, name: string): Steps {
  const at = indexOf(list, name);
  if (at === -1) return list;
  if (!ownedByBatch(list)) {
    const copy = list.slice();
    copy.splice(at, 1);
    claim(copy);
    return copy;
  }
  (list as string[]).splice(at, 1);
  // Its rank stays, given to no name of the list (see above).
  const ranks = indexes.get(list);
  if (typeof ranks === 'object' && ranks.of.size > 2 * list.length + 64) indexes.set(list, ranked(list) ?? 'twice');
  return list;
}

export function stepStarted(state: ThreadState, event: EventOf<'STEP_STARTED'>): ThreadState {
  const before = state.run.steps;
  const active = indexOf(before, event.stepName) !== -1;
  if (active && event.metadata === undefined) return state;
  return step(state, event, active ? before : withName(before, event.stepName));
}

export function stepFinished(state: ThreadState, event: EventOf<'STEP_FINISHED'>): ThreadState {
  const steps = withoutName(state.run.steps, event.stepName);
  if (steps === state.run.steps && event.metadata === undefined) return state;
  return step(state, event, steps);
}

/** The run with its open steps, and the step's metadata merged into `stepMetadata`. */
function step(state: ThreadState, event: EventOf<'STEP_STARTED'> | EventOf<'STEP_FINISHED'>, steps: Steps): ThreadState {
  const all = state.run.stepMetadata ?? {};
  const run: RunState = { ...state.run, steps };
  if (event.metadata !== undefined)
    run.stepMetadata = withKey(all, event.stepName, mergeMetadata(entry(all, event.stepName), event.metadata) as RecordMetadata);
  return { ...state, run };
}
