/** The JSON Patch operations, as `data-op` values; anything else an agent sends shows as `other`. */
export type PatchOp = 'add' | 'replace' | 'remove' | 'move' | 'copy' | 'test' | 'other';

const OPS: ReadonlySet<string> = new Set(['add', 'replace', 'remove', 'move', 'copy', 'test']);

/** An operation's `op` as a `data-op` value: one of the six JSON Patch operations, or `other`. */
export function patchOp(op: unknown): PatchOp {
  return typeof op === 'string' && OPS.has(op) ? (op as PatchOp) : 'other';
}

/** What an operation did at one node: its op, and where it came from or went to for move and copy. */
export interface Mark {
  /** Position of the operation in its delta. */
  at: number;
  op: PatchOp;
  /** The op as the agent wrote it: shown as text, never trusted as an attribute value. */
  label: string;
  /** Where a move took the value (`to`), or where a move or copy took it from (`from`). */
  note?: { kind: 'to' | 'from'; path: string };
}

/** A key that an operation took away, shown where it was. */
export interface Removed {
  key: string;
  mark: Mark;
}

export interface Highlights {
  /** Marks by JSON Pointer of the node they touched. */
  at: ReadonlyMap<string, readonly Mark[]>;
  /** Pointers of every container with a touched node below it: expanded so the change is visible. */
  inside: ReadonlySet<string>;
  /** Keys removed (or moved away) by parent pointer. */
  removed: ReadonlyMap<string, readonly Removed[]>;
}

const NO_HIGHLIGHTS: Highlights = { at: new Map(), inside: new Set(), removed: new Map() };

/** Escapes a key as one JSON Pointer segment (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/');
}

/** The key a JSON Pointer segment names. */
export function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function childOf(value: unknown, segment: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const key = unescapeSegment(segment);
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Where each operation of a delta landed in `document` (the document after
 * the delta), so a tree can mark the nodes it touched and open the way to
 * them. Operations that are not objects with a string `path` are skipped.
 *
 * @example
 * highlightsOf([{ op: 'replace', path: '/refund/status', value: 'approved' }], doc).at.get('/refund/status'); // [{ op: 'replace', ... }]
 */
export function highlightsOf(operations: readonly unknown[] | undefined, document: unknown): Highlights {
  if (!operations?.length) return NO_HIGHLIGHTS;
  const removed = new Map<string, Removed[]>();
  const inside = new Set<string>();
  // Each container above the pointer, nearest first; one already open has every container above it open too.
  const openTo = (pointer: string) => {
    let above = pointer;
    for (let cut = above.lastIndexOf('/'); cut >= 0; cut = above.lastIndexOf('/')) {
      above = above.slice(0, cut);
      if (inside.has(above)) return;
      inside.add(above);
    }
  };
  const arrays = arrayPositions(operations, document);
  // The marks so far, each where its node is now: a later insert or removal in the same array moves it.
  const marks: { segments: string[]; mark: Mark; gone?: true }[] = [];
  const markAt = (pointer: string, mark: Mark, appended = false) => {
    const segments = splitPointer(pointer);
    const moved = arrays?.insert(segments, appended, marks);
    marks.push({ segments: moved ?? segments, mark });
  };
  const markRemoved = (pointer: string, mark: Mark) => {
    const segments = splitPointer(pointer);
    const last = segments.at(-1);
    if (last === undefined) return markAt(pointer, mark);
    const parent = segments.length > 1 ? `/${segments.slice(0, -1).join('/')}` : '';
    const list = removed.get(parent);
    if (list) list.push({ key: unescapeSegment(last), mark });
    else removed.set(parent, [{ key: unescapeSegment(last), mark }]);
    openTo(pointer);
    arrays?.remove(segments, marks);
  };
  for (const [i, operation] of operations.entries()) {
    if (typeof operation !== 'object' || operation === null) continue;
    const { op, path, from } = operation as { op?: unknown; path?: unknown; from?: unknown };
    if (typeof path !== 'string') continue;
    const label = String(op);
    const base = { at: i, label };
    const kind = patchOp(op);
    const source = typeof from === 'string' ? from : undefined;
    if (kind === 'remove') markRemoved(path, { ...base, op: kind });
    else if (kind === 'move' && source !== undefined) {
      markRemoved(source, { ...base, op: kind, note: { kind: 'to', path } });
      markAt(path, { ...base, op: kind, note: { kind: 'from', path: source } }, true);
    } else if (kind === 'copy' && source !== undefined) markAt(path, { ...base, op: kind, note: { kind: 'from', path: source } }, true);
    else markAt(path, { ...base, op: kind }, kind === 'add');
  }
  const at = new Map<string, Mark[]>();
  for (const { segments, mark, gone } of marks) {
    if (gone) continue;
    const pointer = segments.length ? `/${segments.join('/')}` : '';
    const list = at.get(pointer);
    if (list) list.push(mark);
    else at.set(pointer, [mark]);
    openTo(pointer);
  }
  return { at, inside, removed };
}

/** Past this many inserts and removals at an index, a delta's marks stay where its operations name them. */
const MAX_SHIFTS = 1_000;

/**
 * The arrays a delta inserts into or removes from, with their length as each
 * operation meets them (worked back from the document after the delta), so
 * that an append (`/list/-`) names the element it added, and a mark moves
 * with its node when a later operation inserts or removes before it (a
 * replace of `/items/1`, then a remove of `/items/0`: the replaced value is
 * now at `/items/0`). Undefined past MAX_SHIFTS, where moving marks would
 * cost the square of the operations.
 */
function arrayPositions(operations: readonly unknown[], document: unknown) {
  const lengths = new Map<string, number>();
  const notArrays = new Set<string>();
  let shifts = 0;
  // The parent of a pointer that is an array in the final document, by its pointer, with its final length.
  const arrayOf = (segments: readonly string[]): string | undefined => {
    if (segments.length === 0) return undefined;
    const parent = segments.slice(0, -1);
    const key = parent.join('/');
    if (lengths.has(key)) return key;
    if (notArrays.has(key)) return undefined;
    let value = document;
    for (const s of parent) value = childOf(value, s);
    if (!Array.isArray(value)) {
      notArrays.add(key);
      return undefined;
    }
    lengths.set(key, value.length);
    return key;
  };
  // Worked back: each insert made the array one longer, each removal one shorter.
  const change = (pointer: unknown, by: number, counts: boolean) => {
    if (typeof pointer !== 'string') return;
    const segments = splitPointer(pointer);
    const key = arrayOf(segments);
    if (key === undefined) return;
    lengths.set(key, (lengths.get(key) ?? 0) - by);
    if (counts && segments.at(-1) !== '-') shifts++;
  };
  for (const operation of operations) {
    if (typeof operation !== 'object' || operation === null) continue;
    const { op, path, from } = operation as { op?: unknown; path?: unknown; from?: unknown };
    if (op === 'remove') change(path, -1, true);
    else if (op === 'move') {
      change(from, -1, true);
      change(path, 1, true);
    } else if (op === 'add' || op === 'copy') change(path, 1, true);
  }
  if (shifts > MAX_SHIFTS) return undefined;
  type Marks = { segments: string[]; gone?: true }[];
  const indexOf = (segment: string | undefined) => (segment !== undefined && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1);
  /** Moves the marks under array `key` at or past `index` by `by`; with `drop`, the marks at `index` (a removed element) go. */
  const shift = (key: string, index: number, by: number, marks: Marks, drop: boolean) => {
    const depth = key === '' ? 0 : key.split('/').length;
    for (const m of marks) {
      if (m.gone || m.segments.length <= depth || m.segments.slice(0, depth).join('/') !== key) continue;
      const at = indexOf(m.segments[depth]);
      if (at < index) continue;
      if (drop && at === index) m.gone = true;
      else m.segments = [...m.segments.slice(0, depth), String(at + by), ...m.segments.slice(depth + 1)];
    }
  };
  return {
    /** An element added at `segments` (an append when its last segment is `-`): where it is, the marks after it moved on. */
    insert(segments: string[], added: boolean, marks: Marks): string[] | undefined {
      if (!added) return undefined;
      const key = arrayOf(segments);
      if (key === undefined) return undefined;
      const length = lengths.get(key) ?? 0;
      const last = segments.at(-1);
      const index = last === '-' ? length : indexOf(last);
      lengths.set(key, length + 1);
      if (index < 0) return undefined;
      if (index < length) shift(key, index, 1, marks, false);
      return [...segments.slice(0, -1), String(index)];
    },
    /** An element removed at `segments`: the marks on it go, and those after it move back. */
    remove(segments: string[], marks: Marks): void {
      const key = arrayOf(segments);
      if (key === undefined) return;
      lengths.set(key, Math.max(0, (lengths.get(key) ?? 0) - 1));
      const index = indexOf(segments.at(-1));
      if (index >= 0) shift(key, index, -1, marks, true);
    },
  };
}
