/**
 * A recipe's edit made on immer's draft: loaded with immer on the first edit,
 * so that neither is in the first load (an edit asked for meanwhile is made
 * on a copy: recipeDelta.ts). immer is imported by the loader, not here, so
 * that a chunk of it that failed to load is loaded again at the next edit.
 */
import type * as ImmerModule from 'immer';
import type { Immer, Patch } from 'immer';
import type { JsonPatchOperation } from '../protocol.js';
import { asJson } from './documentJson.js';
import { changedAndReturned, notJson, type RecipeDelta, recipeFailed, runRecipe } from './recipeDelta.js';
import type { SharedStateRecipe } from './types.js';

const pointerSegment = (segment: string | number) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

/** Whether the recipe changed its draft, as JSON says (a draft it cannot write says no). */
function changed(base: unknown, draft: unknown): boolean {
  try {
    return JSON.stringify(draft) !== JSON.stringify(base);
  } catch {
    return false;
  }
}

/**
 * immer's patch as RFC 6902, its path a JSON pointer and its value as JSON
 * carries it: the document goes to the agent as JSON, so it holds what JSON
 * would. A member set to `undefined` (or a function) is no member: its
 * replace removes it, its add adds nothing (`undefined` is returned); an
 * array's element (or the document) becomes `null`. A member keyed by a
 * symbol is none JSON writes: its patch is none either.
 */
export function toJsonPatch(patch: Patch): JsonPatchOperation | undefined {
  if (patch.path.some((s) => typeof s === 'symbol')) return undefined;
  const path = patch.path.map((s) => `/${pointerSegment(s)}`).join('');
  if (patch.op === 'remove') return { op: 'remove', path };
  const value = asJson(patch.value);
  if (value !== undefined) return { op: patch.op, path, value } as JsonPatchOperation;
  if (patch.path.length === 0 || typeof patch.path.at(-1) === 'number') return { op: patch.op, path, value: null } as JsonPatchOperation;
  return patch.op === 'replace' ? { op: 'remove', path } : undefined;
}

/**
 * The recipe on an immer draft of `base`: immer drafts only what the recipe touches, so an edit beside a large object
 * never copies it, and one inside it copies that object alone (read through its overlay, which reads as a plain object).
 */
export function immerDelta<Doc>(immer: Immer, base: Doc, recipe: SharedStateRecipe<Doc>): RecipeDelta {
  let patches: Patch[];
  // A recipe that returned a value other than its draft, having changed the draft too: immer refuses it, in its words.
  let both = false;
  try {
    [, patches] = immer.produceWithPatches(base, (draft: Doc) => {
      const out = runRecipe(recipe, draft);
      both = out !== undefined && out !== draft && changed(base, draft);
      return out as Doc;
    });
  } catch (e) {
    return both ? { refusal: changedAndReturned } : recipeFailed(e);
  }
  // As JSON: a copy, never one of the app's own objects the recipe put in the draft.
  const delta: JsonPatchOperation[] = [];
  try {
    for (const patch of patches) {
      const op = toJsonPatch(patch);
      if (op) delta.push(op);
    }
  } catch (e) {
    return notJson(e);
  }
  return { delta };
}

/**
 * The edit on a draft of immer's `module`: an instance of its own, patches on,
 * and no auto-freeze (the document belongs to the thread, which never mutates it).
 */
export function drafting(module: typeof ImmerModule): <Doc>(base: Doc, recipe: SharedStateRecipe<Doc>) => RecipeDelta {
  module.enablePatches();
  const immer = new module.Immer({ autoFreeze: false });
  return (base, recipe) => immerDelta(immer, base, recipe);
}
