/** JSON Patch operations resolved against the document a stream has so far (see arbitrariesWriter.ts). */
import type { Obj, OpIntent } from './arbitrariesPlan.js';

export const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
export const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Turns an intent into an operation that applies to `doc`, and the document after it. */
export function resolveOp(doc: Obj, intent: OpIntent): [Obj, Obj] {
  const keys = Object.keys(doc).filter((k) => k !== '__proto__');
  const pointer = (...path: string[]) => `/${path.map(escapeKey).join('/')}`;
  const add = (): [Obj, Obj] => [
    { op: 'add', path: pointer(intent.key), value: intent.value },
    { ...doc, [intent.key]: intent.value },
  ];
  const existing = keys.length ? (keys[intent.pick % keys.length] as string) : undefined;
  if (existing === undefined) return add();
  const rest = () => {
    const copy = { ...doc };
    delete copy[existing];
    return copy;
  };
  switch (intent.kind) {
    case 'add':
      return add();
    case 'replace':
      return [
        { op: 'replace', path: pointer(existing), value: intent.value },
        { ...doc, [existing]: intent.value },
      ];
    case 'remove':
      return [{ op: 'remove', path: pointer(existing) }, rest()];
    case 'test':
      return [{ op: 'test', path: pointer(existing), value: doc[existing] }, doc];
    case 'move':
      return [
        { op: 'move', from: pointer(existing), path: pointer(intent.key) },
        { ...rest(), [intent.key]: doc[existing] },
      ];
    case 'copy':
      return [
        { op: 'copy', from: pointer(existing), path: pointer(intent.key) },
        { ...doc, [intent.key]: structuredClone(doc[existing]) },
      ];
    case 'append': {
      const list = keys.find((k) => Array.isArray(doc[k]));
      if (list === undefined)
        return [
          { op: 'add', path: pointer(intent.key), value: [intent.value] },
          { ...doc, [intent.key]: [intent.value] },
        ];
      return [
        { op: 'add', path: `${pointer(list)}/-`, value: intent.value },
        { ...doc, [list]: [...(doc[list] as unknown[]), intent.value] },
      ];
    }
    case 'nested': {
      const inner = keys.find((k) => isPlainObject(doc[k]));
      if (inner === undefined) return add();
      return [
        { op: 'add', path: pointer(inner, intent.key), value: intent.value },
        { ...doc, [inner]: { ...(doc[inner] as Obj), [intent.key]: intent.value } },
      ];
    }
  }
}
