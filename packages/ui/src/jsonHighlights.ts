/** The JSON Patch operations, as `data-op` values; anything else an agent sends shows as `other`. */
export type PatchOp = 'add' | 'replace' | 'remove' | 'move' | 'copy' | 'test' | 'other';

const OPS: ReadonlySet<string> = new Set(['add', 'replace', 'remove', 'move', 'copy', 'test']);

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

/** `/list/-` names the element an `add` appended: the array's last index in the document after the patch. */
function resolveAppend(pointer: string, document: unknown): string {
  const segments = splitPointer(pointer);
  if (segments.at(-1) !== '-') return pointer;
  let parent = document;
  for (const s of segments.slice(0, -1)) parent = childOf(parent, s);
  const last = Array.isArray(parent) ? parent.length - 1 : -1;
  return last < 0 ? pointer : `/${[...segments.slice(0, -1), String(last)].join('/')}`;
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
  const at = new Map<string, Mark[]>();
  const inside = new Set<string>();
  const removed = new Map<string, Removed[]>();
  // Each container above the pointer, nearest first; one already open has every container above it open too.
  const openTo = (pointer: string) => {
    let above = pointer;
    for (let cut = above.lastIndexOf('/'); cut >= 0; cut = above.lastIndexOf('/')) {
      above = above.slice(0, cut);
      if (inside.has(above)) return;
      inside.add(above);
    }
  };
  const push = <T>(map: Map<string, T[]>, key: string, item: T) => {
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  };
  const markAt = (pointer: string, mark: Mark) => {
    push(at, pointer, mark);
    openTo(pointer);
  };
  const markRemoved = (pointer: string, mark: Mark) => {
    const segments = splitPointer(pointer);
    const last = segments.pop();
    if (last === undefined) return markAt(pointer, mark);
    const parent = segments.length ? `/${segments.join('/')}` : '';
    push(removed, parent, { key: unescapeSegment(last), mark });
    openTo(pointer);
  };
  for (const [i, operation] of operations.entries()) {
    if (typeof operation !== 'object' || operation === null) continue;
    const { op, path, from } = operation as { op?: unknown; path?: unknown; from?: unknown };
    if (typeof path !== 'string') continue;
    const label = String(op);
    const base = { at: i, label };
    const kind: PatchOp = typeof op === 'string' && OPS.has(op) ? (op as PatchOp) : 'other';
    const source = typeof from === 'string' ? from : undefined;
    if (kind === 'remove') markRemoved(path, { ...base, op: kind });
    else if (kind === 'move' && source !== undefined) {
      markRemoved(source, { ...base, op: kind, note: { kind: 'to', path } });
      markAt(resolveAppend(path, document), { ...base, op: kind, note: { kind: 'from', path: source } });
    } else if (kind === 'copy' && source !== undefined)
      markAt(resolveAppend(path, document), { ...base, op: kind, note: { kind: 'from', path: source } });
    else markAt(kind === 'add' ? resolveAppend(path, document) : path, { ...base, op: kind });
  }
  return { at, inside, removed };
}
