/// <reference path="./fastJsonPatch.d.ts" />
/**
 * RFC 6902 JSON Patch, applied copy-on-write. fast-json-patch applies the
 * operations (all six, `test` included); aguikit copies the containers on
 * each operation's path first, so a patch is atomic and untouched subtrees
 * keep their identity, and an object of more than `LARGE_OBJECT_KEYS` keys is
 * an overlay over itself from its first write (largeObject.ts), part of the
 * static import graph: the same events always give the same representation.
 */
import { applyOperation, type Operation, validator as operationShape, type Validator } from 'fast-json-patch/module/core.mjs';
import { claim, ownedByBatch } from './batchOwned.js';
import { noteLargeObjects, seal, writableCopy } from './largeObject.js';
import { MAX_JSON_DEPTH, nestsWithin } from './reducer/ownJson.js';
import { thrownText } from './thrownText.js';

export { LARGE_OBJECT_KEYS, noteLargeObjects } from './largeObject.js';

/**
 * Kept for applications written against earlier versions, which loaded the
 * large-object code ahead: that code is now part of `applyJsonPatch`, so there
 * is nothing to load, and the promise is already resolved.
 *
 * @example
 * await loadLargeObjects(); // no longer needed
 */
export const loadLargeObjects = (): Promise<void> => Promise.resolve();

/**
 * Why an operation could not apply, as a value a UI can put in its own words:
 * not an object, a path into an object's prototype, an op RFC 6902 does not
 * have, an operation of the wrong shape (a path that is not a string, an add
 * without a value), a path or `from` the document does not have, a `test`
 * that does not hold, or a value that would nest the document too deep.
 */
export type PatchFailureCode =
  | 'NOT_AN_OPERATION'
  | 'FORBIDDEN_PATH'
  | 'UNKNOWN_OPERATION'
  | 'INVALID_OPERATION'
  | 'NO_SUCH_PATH'
  | 'TEST_FAILED'
  | 'TOO_DEEP';

export type PatchResult =
  | { ok: true; document: unknown }
  | { ok: false; operationIndex: number; operation: unknown; code: PatchFailureCode; message: string };

/** An error of this module's own checks, with its code. */
class PatchRefused extends Error {
  constructor(
    readonly code: PatchFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/** fast-json-patch's error names, by what they mean here. */
function codeOf(error: unknown): PatchFailureCode {
  if (error instanceof PatchRefused) return error.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TEST_OPERATION_FAILED') return 'TEST_FAILED';
  if (name === 'OPERATION_OP_INVALID') return 'UNKNOWN_OPERATION';
  if (
    name === 'OPERATION_PATH_UNRESOLVABLE' ||
    name === 'OPERATION_FROM_UNRESOLVABLE' ||
    name === 'OPERATION_PATH_CANNOT_ADD' ||
    name === 'OPERATION_VALUE_OUT_OF_BOUNDS' ||
    name === 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX'
  )
    return 'NO_SUCH_PATH';
  return 'INVALID_OPERATION';
}

const FORBIDDEN = /(^|\/)__proto__(\/|$)|(^|\/)constructor\/prototype(\/|$)/;

/** A `~` RFC 6901 does not write: it escapes only `~` (`~0`) and `/` (`~1`). */
const BAD_ESCAPE = /~(?![01])/;

/** A pointer in a message, cut short: a path may be megabytes long. */
const quoted = (pointer: string) => JSON.stringify(pointer.length > 80 ? `${pointer.slice(0, 80)}…` : pointer);

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** The segments of a JSON pointer, unescaped (RFC 6901). */
function segments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** An array index as RFC 6901 writes it: no sign, no leading zero, no exponent. */
const INDEX = /^(?:0|[1-9]\d*)$/;

const SIX_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** The value `pointer` names in `document` (own members of objects, indices inside arrays), or NOWHERE. */
function valueAt(document: unknown, pointer: string): unknown {
  let node = document;
  for (const key of segments(pointer)) {
    if (!isContainer(node)) return NOWHERE;
    if (Array.isArray(node) ? !INDEX.test(key) || Number(key) >= node.length : !Object.hasOwn(node, key)) return NOWHERE;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
const NOWHERE = Symbol('nowhere');

/**
 * Why an operation cannot apply before its path is walked: an op that is not
 * one of RFC 6902's six, or a value that would make the document deeper
 * than MAX_JSON_DEPTH.
 */
function refusal(document: unknown, op: Operation): PatchRefused | undefined {
  if (!SIX_OPS.has(op.op)) return new PatchRefused('UNKNOWN_OPERATION', `unknown operation ${JSON.stringify(String(op.op)).slice(0, 40)}`);
  if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'move' && op.op !== 'copy') return undefined;
  const levels = typeof op.path === 'string' ? segments(op.path).length : 0;
  let value: unknown;
  if (op.op === 'add' || op.op === 'replace') value = op.value;
  else {
    // What the document holds at `from` is as deep as the document lets it be there: taken no deeper, it fits
    // without a walk, and a move of a 100,000-key object costs what any other write costs.
    if (typeof op.from !== 'string' || levels <= segments(op.from).length) return undefined;
    value = valueAt(document, op.from);
  }
  return nestsWithin(value, MAX_JSON_DEPTH - levels)
    ? undefined
    : new PatchRefused('TOO_DEEP', `the document would be nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/**
 * fast-json-patch's validator, with the checks that need the document done
 * here: the library checks a move's or copy's `from` by applying a patch to a
 * deep clone of the whole document, and its errors serialize the document
 * into their message, both O(size of the document) per operation.
 */
const validator: Validator<unknown> = (operation, index, document, existingPathFragment) => {
  // The operation's own shape; without a document, an error does not serialize one.
  operationShape(operation, index);
  const fail = (message: string): never => {
    throw new PatchRefused('NO_SUCH_PATH', message);
  };
  switch (operation.op) {
    case 'add': {
      const depth = operation.path.split('/').length;
      const existing = (existingPathFragment ?? '').split('/').length;
      if (depth !== existing + 1 && depth !== existing) fail('Cannot perform an `add` operation at the desired path');
      break;
    }
    case 'replace':
    case 'remove':
    case '_get':
      if (operation.path !== existingPathFragment) fail('Cannot perform the operation at a path that does not exist');
      break;
    case 'move':
    case 'copy':
      if (valueAt(document, operation.from) === NOWHERE) fail('Cannot perform the operation from a path that does not exist');
      break;
  }
};

/**
 * Applies RFC 6902 operations to `document` atomically and without mutating
 * it: either every operation applies and the result shares every untouched
 * subtree with the input, or nothing changes and the failing operation is
 * named. Paths that reach `__proto__` or `constructor/prototype`, or pass
 * through a property the document does not own, are refused. An object of
 * more than `LARGE_OBJECT_KEYS` keys becomes, at the first write into it, an
 * overlay over itself (largeObject.ts), so a write costs O(log keys) however
 * large it is, the first one included.
 *
 * @example
 * const r = applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]);
 * if (r.ok) render(r.document); else markDesynced(r.operation, r.message);
 */
export function applyJsonPatch(document: unknown, operations: readonly unknown[]): PatchResult {
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i] as { path?: unknown; from?: unknown } | null | undefined;
    if (typeof op !== 'object' || op === null)
      return { ok: false, operationIndex: i, operation: op, code: 'NOT_AN_OPERATION', message: 'not an operation object' };
    const refuse = (code: PatchFailureCode, message: string): PatchResult => ({
      ok: false,
      operationIndex: i,
      operation: op,
      code,
      message,
    });
    // A `from` counts only where the operation takes one (RFC 6902 ignores members an operation does not define).
    const takesFrom = (op as Operation).op === 'move' || (op as Operation).op === 'copy';
    for (const pointer of takesFrom ? [op.path, op.from] : [op.path]) {
      if (typeof pointer !== 'string') continue;
      if (FORBIDDEN.test(pointer)) return refuse('FORBIDDEN_PATH', `path ${pointer} would modify an object prototype; refused`);
      if (BAD_ESCAPE.test(pointer))
        return refuse('INVALID_OPERATION', `${quoted(pointer)} is no JSON pointer: RFC 6901 writes ~ only as ~0 or ~1`);
    }
    // RFC 6902 §4.4: a location is not moved into one of its children (the document would hold itself).
    const { from, path } = op;
    if ((op as Operation).op === 'move' && typeof from === 'string' && typeof path === 'string' && path.startsWith(`${from}/`))
      return refuse(
        'INVALID_OPERATION',
        `cannot move ${from === '' ? 'the document' : quoted(from)} into ${quoted(path)}, a place inside itself`,
      );
  }
  // Copy-on-write: before an operation writes, each container on its path is copied once per patch, so
  // fast-json-patch mutates only copies this call owns. The input (and every event's payload) stays as it
  // was, untouched subtrees keep their identity, and a failure simply discards the copies.
  const box: { document: unknown } = { document };
  const owned = new WeakSet<object>([box]);
  const copies: object[] = [];
  // An array a batch made and no one has seen is written in place (batchOwned.ts), and what the patch did to it is
  // undone if a later operation fails: what it put into it (a copy of what it walks through), and each operation's
  // own write, which fast-json-patch makes only once the operation has passed its checks. A move removes, then
  // adds: a patch with one copies as before.
  const inPlace = !operations.some((op) => (op as Operation).op === 'move');
  const undo: (() => void)[] = [];
  /** Where the last walk ended: the container an operation writes into, and its key there. */
  let target: Container | undefined;
  let targetKey = '';
  // `creates`: the pointer may name a member or element that does not exist yet (an add's, a copy's, a move's target).
  const own = (pointer: string, creates: boolean): PatchRefused | undefined => {
    const path = segments(pointer);
    let parent: Container = box;
    let key = 'document';
    target = undefined;
    for (let i = 0; i < path.length; i++) {
      const child: unknown = (parent as Record<string, unknown>)[key];
      if (!isContainer(child)) return undefined;
      let copy: Container = child;
      if (!owned.has(child) && !(inPlace && ownedByBatch(child))) {
        // A large object's copy shares its overlay: O(1), not O(keys) (see largeObject.ts).
        copy = Array.isArray(child) ? child.slice() : writableCopy(child);
        owned.add(copy);
        copies.push(copy);
        const [into, at] = [parent as Record<string, unknown>, key];
        if (!owned.has(into)) undo.push(() => (into[at] = child));
        into[at] = copy;
      }
      parent = copy;
      key = path[i] as string;
      const last = i === path.length - 1;
      if (Array.isArray(parent)) {
        // An index as RFC 6901 writes it (not `01`, `''` or `4294967297`), inside the array; one past its end, or `-`, only for a new element.
        const adds = last && creates;
        if (!(INDEX.test(key) && Number(key) < parent.length + (adds ? 1 : 0)) && !(adds && key === '-'))
          return new PatchRefused(
            'NO_SUCH_PATH',
            `Cannot perform the operation at a path that does not exist (${pointer}: not an index of the array)`,
          );
      } else if ((!last || (!creates && key in Object.prototype)) && !Object.hasOwn(parent, key))
        // Only the document's own members are walked through or replaced: an inherited one (`constructor`) is not part of it.
        // (A last key no object inherits is checked by fast-json-patch, which reads it anyway.)
        return new PatchRefused('NO_SUCH_PATH', `Cannot perform the operation at a path that does not exist${last ? '' : ` (${pointer})`}`);
    }
    [target, targetKey] = [parent, key];
    return undefined;
  };
  /** How to take back the write `op` is about to make, when it makes it into an array it does not own (the batch's). */
  const inverse = (op: Operation): (() => void) | undefined => {
    const list = target;
    if (!Array.isArray(list) || owned.has(list) || op.op === 'test') return undefined;
    const index = targetKey === '-' ? list.length : Number(targetKey);
    const was = list[index];
    if (op.op === 'remove') return () => list.splice(index, 0, was);
    if (op.op === 'replace') return () => (list[index] = was);
    return () => list.splice(index, 1);
  };
  let at = 0;
  try {
    for (; at < operations.length; at++) {
      const op = operations[at] as Operation;
      // A test writes nothing; a move also writes where it takes from.
      const refused =
        refusal(box.document, op) ??
        (op.op === 'test'
          ? undefined
          : (own(op.path, op.op !== 'replace' && op.op !== 'remove') ?? (op.op === 'move' ? own(op.from, false) : undefined)));
      if (refused) return failed(at, op, refused.code, refused.message);
      // A value the patch brings in is measured now, in proportion to its own size (see largeObject.ts).
      if (op.op === 'add' || op.op === 'replace') noteLargeObjects(op.value);
      const back = inverse(op);
      box.document = applyOperation(box.document, op, validator, true, true, at).newDocument;
      if (back) undo.push(back);
    }
    for (const copy of copies) {
      seal(copy);
      // The arrays it copied are the batch's from now on (a large object's overlay is sealed, and stays copied).
      if (Array.isArray(copy)) claim(copy);
    }
    return { ok: true, document: box.document };
  } catch (e) {
    return failed(at, operations[at], codeOf(e), thrownText(e).split('\n')[0] ?? '');
  }

  function failed(index: number, operation: unknown, code: PatchFailureCode, message: string): PatchResult {
    for (let i = undo.length - 1; i >= 0; i--) (undo[i] as () => void)();
    return { ok: false, operationIndex: index, operation, code, message };
  }
}
