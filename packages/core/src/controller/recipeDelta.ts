/**
 * A recipe's edit as JSON Patch, and why one is no edit: code of the engine's
 * chunk and immer's (engineParts.ts, immerEdit.ts), which no edit runs before
 * one of them has loaded.
 */
import { compare } from 'fast-json-patch/module/duplex.mjs';
import type { JsonPatchOperation } from '../protocol.js';
import { JsonTooDeep, MAX_JSON_DEPTH, nestsWithin } from '../reducer/ownJson.js';
import { thrownText } from '../thrownText.js';
import { jsonDocument } from './documentJson.js';
import { tooDeep } from './refusals.js';
import type { Refusal, SharedStateRecipe } from './types.js';

/** What a recipe made of the document: the JSON Patch of its edit, or why it is no edit. */
export type RecipeDelta = { delta: JsonPatchOperation[]; refusal?: never } | { refusal: Refusal; delta?: never };

const ASYNC_RECIPE = Symbol('async recipe');
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** The recipe run on `draft`: what it returned. One that returns a promise throws ASYNC_RECIPE. */
export function runRecipe<Doc>(recipe: SharedStateRecipe<Doc>, draft: Doc): unknown {
  const out = (recipe as (draft: Doc) => unknown)(draft);
  if (!isThenable(out)) return out;
  // What it edits after an await would land on a draft that is gone (immer revokes it), and what its promise
  // resolves to is no document: the whole edit is refused, what it did before its first await as well.
  out.then(undefined, () => undefined);
  throw ASYNC_RECIPE;
}

/** What a recipe that changed its draft and returned a value too is told: which of the two is the edit is not known. */
export const changedAndReturned: Refusal = {
  code: 'EDIT_REFUSED',
  message:
    'The edit was not applied: the recipe changed its draft and returned a value too (as `d => d.list.push(x)` does): change the draft, or return a new document.',
};

/** The app's recipe failed: nothing is edited. */
export const recipeFailed = (e: unknown): RecipeDelta => ({
  refusal:
    e === ASYNC_RECIPE
      ? {
          code: 'EDIT_REFUSED',
          message: 'The edit was not applied: the recipe returned a promise. Await what it needs first, then edit the draft at once.',
        }
      : { code: 'EDIT_REFUSED', message: `The edit was not applied: its recipe threw: ${thrownText(e)}` },
});

/**
 * What JSON cannot write (a cycle, a BigInt), or a getter or toJSON of the app's that throws as JSON reads it, is no
 * edit of a JSON document: refused, as the rest are.
 */
export const notJson = (e: unknown): RecipeDelta => ({
  refusal:
    e instanceof RangeError || e instanceof JsonTooDeep
      ? tooDeep()
      : { code: 'EDIT_REFUSED', message: `The edit was not applied: ${thrownText(e)}.` },
});

/**
 * The JSON Patch that takes JSON document `from` to `to`: fast-json-patch's
 * comparison, with the whole document replaced where its root changes kind
 * (an object for an array, a value for either).
 */
export function documentDelta(from: unknown, to: unknown): JsonPatchOperation[] {
  if (from === to) return [];
  const container = (v: unknown) => (typeof v !== 'object' || v === null ? 'value' : Array.isArray(v) ? 'array' : 'object');
  if (container(from) === 'value' || container(from) !== container(to)) return [{ op: 'replace', path: '', value: to }];
  return compare(from as object, to as object) as JsonPatchOperation[];
}

/**
 * The recipe on a copy of `base`, its edit the JSON Patch from `base` to what the recipe left (`documentDelta`): what an edit
 * asked for while immer loads takes, so that it applies at once, as an input bound to the document needs (a field
 * that waited would show its old value meanwhile, and lose the keys typed). It copies the whole document: immer's
 * draft takes over once loaded.
 */
export function copyDelta<Doc>(base: Doc, recipe: SharedStateRecipe<Doc>): RecipeDelta {
  const draft = JSON.parse(JSON.stringify(base) ?? 'null') as Doc;
  let out: unknown;
  try {
    out = runRecipe(recipe, draft);
  } catch (e) {
    return recipeFailed(e);
  }
  try {
    if (out !== undefined && out !== draft && documentDelta(base, jsonDocument(draft)).length > 0) return { refusal: changedAndReturned };
    const next = jsonDocument(out === undefined ? draft : out);
    if (!nestsWithin(next, MAX_JSON_DEPTH)) return { refusal: tooDeep() };
    return { delta: documentDelta(base, next) };
  } catch (e) {
    return notJson(e);
  }
}
