import type { Immer, Patch } from 'immer';
import type { ThreadState } from '../model.js';
import { toPlainJson } from '../plainJson.js';
import type { JsonPatchOperation } from '../protocol.js';
import { ownJson } from '../reducer/ownJson.js';
import { loadEngine, loadedEngine } from './engineLoader.js';
import { refusals, unavailable } from './refusals.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { ActionResult, Refusal, SharedStateRecipe } from './types.js';

let loading: Promise<Immer> | undefined;
/** immer once loaded: an instance with no state of any thread, shared by every controller. */
let loaded: Immer | undefined;

/**
 * immer, loaded on the first edit: an application that never edits the
 * shared state never loads it. An instance of its own, patches on, and no
 * auto-freeze: the document belongs to the thread, which never mutates it.
 */
function loadImmer(): Promise<Immer> {
  loading ??= import('immer').then((m) => {
    m.enablePatches();
    loaded = new m.Immer({ autoFreeze: false });
    return loaded;
  });
  loading.catch(() => {
    // A chunk that failed to load is loaded again at the next edit.
    loading = undefined;
  });
  return loading;
}

const pointerSegment = (segment: string | number) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

/** immer's patch as RFC 6902: the path as a JSON pointer. */
export function toJsonPatch(patch: Patch): JsonPatchOperation {
  const path = patch.path.map((s) => `/${pointerSegment(s)}`).join('');
  return patch.op === 'remove' ? { op: 'remove', path } : ({ op: patch.op, path, value: patch.value } as JsonPatchOperation);
}

export interface SharedStateDeps {
  thread(): ThreadState;
  apply(entry: Extract<SessionEntryBody, { type: 'state_edit' | 'state_set' }>): void;
  refuse(refusal: Refusal): ActionResult;
  gone(): boolean;
}

/**
 * The shared-state edits: `update(recipe)` runs the recipe on an immer draft
 * of the document (mutate it, or return a new one: both are kept) and records
 * the patches immer made as a client STATE_DELTA; `set(document)` replaces the
 * document. Edits apply in the order they were asked for, each against the
 * document the ones before it left.
 */
export function sharedStateActions<Doc>(deps: SharedStateDeps) {
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  const status = (): ActionResult => ({ ok: true, status: deps.thread().run.status });
  const gone = (): ActionResult => ({ ok: false, ...refusals.destroyed });
  const enqueue = (work: () => Promise<ActionResult> | ActionResult): Promise<ActionResult> => {
    waiting++;
    const next = queue.then(work).finally(() => waiting--);
    queue = next.catch(() => undefined);
    return next;
  };
  const edit = (immer: Immer, recipe: SharedStateRecipe<Doc>): ActionResult => {
    if (deps.gone()) return gone();
    const base = toPlainJson(deps.thread().sharedState.document) as Doc;
    const [, patches] = immer.produceWithPatches(base, recipe as (draft: Doc) => Doc);
    // Copied: a value the recipe put in the draft may be one of the app's own objects.
    if (patches.length) deps.apply({ type: 'state_edit', delta: ownJson(patches.map(toJsonPatch)) });
    return status();
  };
  const replace = (document: Doc): ActionResult => {
    if (deps.gone()) return gone();
    deps.apply({ type: 'state_set', document: ownJson(document, deps.thread().sharedState.document) });
    return status();
  };
  // With nothing waiting (and immer loaded, for a recipe), an edit applies at once: a run started right after it carries it.
  const now = (work: () => ActionResult): Promise<ActionResult> => {
    try {
      return Promise.resolve(work());
    } catch (e) {
      return Promise.reject(e);
    }
  };
  // An edit is applied as JSON Patch, by the engine: it waits for the engine as well as for immer.
  const update = (recipe: SharedStateRecipe<Doc>): Promise<ActionResult> => {
    const immer = loaded;
    return waiting === 0 && immer && loadedEngine()
      ? now(() => edit(immer, recipe))
      : enqueue(async () => {
          let ready: Immer;
          try {
            [ready] = await Promise.all([loadImmer(), loadEngine()]);
          } catch (error) {
            // Nothing was edited; the next edit loads them again.
            return deps.refuse(unavailable(error));
          }
          return edit(ready, recipe);
        });
  };
  const set = (next: Doc | SharedStateRecipe<Doc>): Promise<ActionResult> => {
    if (typeof next === 'function') return update(next as SharedStateRecipe<Doc>);
    return waiting === 0 ? now(() => replace(next)) : enqueue(() => replace(next));
  };
  return {
    update,
    set,
    /** Resolves once every edit asked for so far has applied (a run waits for them, so it sends them). */
    settled: (): Promise<void> | undefined => (waiting === 0 ? undefined : queue.then(() => undefined)),
  };
}
