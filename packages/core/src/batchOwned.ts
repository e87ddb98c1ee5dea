/**
 * Arrays a batch owns. The thread is immutable: an event that appends to a
 * list (an item of the shared state, a line of an activity, a message's tool
 * call, a step) copies it, so that what anyone saw before keeps its contents.
 * That makes n appends cost O(n²), and past about 11,000 items each copy is
 * a large object of its own: 20,000 appends took 8 s in a replay.
 *
 * In a batch, though, the states between its entries are seen by no one
 * (a replay, a recording's read, a frame of many events; see
 * `machine.batch`). An array the batch copied is then its own: the next
 * append in the same batch writes into it in place, in O(1). Only arrays the
 * batch made are written, never one it was given: a published thread, a
 * recording's checkpoint and an event's payload keep theirs. The batch's
 * ownership ends before anyone could see what it made: at its end, when its
 * thread is read, and at any entry that is not an agent event (a client
 * action, the end of a stream, a reset), so that two states that go on apart
 * (a stream cut off and the thread beside it) never share an array either
 * may write.
 *
 * The owner is in effect only while `owning` runs its callback (one event's
 * reduction), and is restored after it: a listener that makes another
 * thread's entries apply meanwhile does so under its own owner, or none.
 * The app's code the reduction itself calls is kept out of the batch too: a
 * pipeline's clock runs under none, and a push given no owner (from a getter
 * of an in-process agent's event, say) runs under none, whatever batch it is
 * called in.
 * A thread seen in the middle of an event (a listener's action publishes
 * it) ends its batch's ownership at once (`live` set to false): the rest of
 * that event's reduction copies what it changes.
 */

/** The arrays a batch made and no one has seen; `live` false once a thread holding them was seen. */
export interface BatchOwner {
  readonly arrays: WeakSet<object>;
  live: boolean;
}

/** A batch's owner of the arrays it will make. */
export const batchOwner = (): BatchOwner => ({ arrays: new WeakSet(), live: true });

let owner: BatchOwner | undefined;

/** `apply()`, with the arrays of `owned` writable in place and the arrays it copies added to them (none: no batch). */
export function owning<T>(owned: BatchOwner | undefined, apply: () => T): T {
  const outer = owner;
  owner = owned;
  try {
    return apply();
  } finally {
    owner = outer;
  }
}

/** A batch's owner is in effect and live: what runs now that is no part of its reduction must run under `owning(undefined)`. */
export const owningNow = (): boolean => owner?.live === true;

/** Whether the batch in effect made `array`, and may write it in place. */
export const ownedByBatch = (array: object): boolean => owner?.live === true && owner.arrays.has(array);

/** Marks `array`, a copy made in the batch in effect and seen by no one, as the batch's own. */
export const claim = (array: object): void => {
  if (owner?.live) owner.arrays.add(array);
};

/** `list` with `item` at its end: in place when the batch in effect made it, else a copy (which it then owns). */
export function appended<T>(list: readonly T[] | undefined, item: T): readonly T[] {
  if (list !== undefined && ownedByBatch(list)) {
    (list as T[]).push(item);
    return list;
  }
  const copy = list === undefined ? [] : list.slice();
  copy.push(item);
  claim(copy);
  return copy;
}

/**
 * `list` without one `item`, `list` itself when it has none: in place when the batch in effect made it, else a copy
 * (which it then owns). Looked for from both ends at once: what opened last or first is what closes, nearly always.
 */
export function withoutItem<T>(list: readonly T[], item: T): readonly T[] {
  let at = -1;
  for (let i = 0, j = list.length - 1; i <= j && at === -1; i++, j--) at = list[j] === item ? j : list[i] === item ? i : -1;
  if (at === -1) return list;
  const rest = ownedByBatch(list) ? (list as T[]) : list.slice();
  rest.splice(at, 1);
  claim(rest);
  return rest;
}
