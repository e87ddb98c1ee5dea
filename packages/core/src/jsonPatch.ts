import jsonPatch, { type Operation } from 'fast-json-patch';
import { Immer } from 'immer';

// Structural sharing without freezing: freezing would walk every new subtree.
const immer = new Immer({ autoFreeze: false });

export type PatchResult = { ok: true; document: unknown } | { ok: false; operationIndex: number; operation: unknown; message: string };

const FORBIDDEN = /(^|\/)__proto__(\/|$)|(^|\/)constructor\/prototype(\/|$)/;

/**
 * Applies RFC 6902 operations to `document` atomically and without mutating
 * it: either every operation applies and the result shares every untouched
 * subtree with the input, or nothing changes and the failing operation is
 * named. Paths that reach `__proto__` or `constructor/prototype` are refused.
 *
 * @example
 * const r = applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]);
 * if (r.ok) render(r.document); else markDesynced(r.operation, r.message);
 */
export function applyJsonPatch(document: unknown, operations: readonly unknown[]): PatchResult {
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i] as { path?: unknown; from?: unknown } | null | undefined;
    if (typeof op !== 'object' || op === null) return { ok: false, operationIndex: i, operation: op, message: 'not an operation object' };
    for (const pointer of [op.path, op.from]) {
      if (typeof pointer === 'string' && FORBIDDEN.test(pointer)) {
        return { ok: false, operationIndex: i, operation: op, message: `path ${pointer} would modify an object prototype; refused` };
      }
    }
  }
  let at = 0;
  try {
    const box = immer.produce({ document }, (draft) => {
      for (; at < operations.length; at++) {
        const op = operations[at] as Operation;
        draft.document = jsonPatch.applyOperation(draft.document, ownValue(op), true, true, true, at).newDocument;
      }
    });
    return { ok: true, document: box.document };
  } catch (e) {
    const message = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
    return { ok: false, operationIndex: at, operation: operations[at], message };
  }
}

/**
 * The operation with a copy of the value it inserts: immer does not draft a
 * value added during the patch, so a later operation of the same patch (say,
 * `add /list/-` after `add /list`) would write into the event's own payload.
 */
function ownValue(op: Operation): Operation {
  return 'value' in op && typeof op.value === 'object' && op.value !== null ? { ...op, value: structuredClone(op.value) } : op;
}
