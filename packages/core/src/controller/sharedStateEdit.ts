import type { ThreadState } from '../model.js';
import type { JsonPatchOperation } from '../protocol.js';
import { JsonTooDeep, MAX_JSON_DEPTH, nestsWithin, ownJson } from '../reducer/ownJson.js';
import { thrownText } from '../thrownText.js';
import { asJson, jsonDocument, jsonOperations } from './documentJson.js';
import { type Engine, loadEngine, loadedEngine } from './engineLoader.js';
import type { RecipeDelta } from './recipeDelta.js';
import { refusals, tooDeep, unavailable } from './refusals.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { ActionResult, Refusal, SharedStateRecipe } from './types.js';

/** A recipe's edit on immer's draft (immerEdit.ts). */
type Drafted = <Doc>(base: Doc, recipe: SharedStateRecipe<Doc>) => RecipeDelta;
let loading: Promise<Drafted> | undefined;
/** The edit on immer's draft once immer is loaded, shared by every controller. */
let loaded: Drafted | undefined;

/**
 * immer, loaded on the first edit with the code that edits on its draft: an
 * application that never edits the shared state never loads either.
 */
function loadImmer(): Promise<Drafted> {
  loading ??= Promise.all([import('immer'), import('./immerEdit.js')]).then(([m, edit]) => (loaded = edit.drafting(m)));
  loading.catch(() => {
    // A chunk that failed to load is loaded again at the next edit.
    loading = undefined;
  });
  return loading;
}

export interface SharedStateDeps {
  thread(): ThreadState;
  /** Runs `work` now, or right after the entry being applied (an edit asked for from `onEvent`: see Journal.later). */
  later(work: () => void): void;
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
  /** A recipe is running: an edit it asks for waits for the one it makes, asked for first. */
  let drafting = false;
  /** Whether an edit asked for now may apply at once: nothing waits before it (the engine, immer, a recipe running). */
  const idle = () => waiting === 0 && !drafting && loadedEngine() !== undefined;
  /** Bumped by a reset: an edit asked for before it was an edit of a thread that is gone. */
  let generation = 0;
  const status = (): ActionResult => ({ ok: true, status: deps.thread().run.status });
  const gone = (): ActionResult => ({ ok: false, ...refusals.destroyed });
  /** Why an edit that waited did nothing, or undefined when it may apply. */
  const stale = (asked: number): ActionResult | undefined =>
    deps.gone() ? gone() : asked !== generation ? { ok: false, ...refusals.threadReset } : undefined;
  const enqueue = (work: (asked: number) => Promise<ActionResult> | ActionResult): Promise<ActionResult> => {
    waiting++;
    const asked = generation;
    const next = queue.then(() => work(asked)).finally(() => waiting--);
    queue = next.catch(() => undefined);
    return next;
  };
  /** The recipe's edit of the document as it is now, by immer once loaded, else on a copy. */
  const edit = (immer: Drafted | undefined, recipe: SharedStateRecipe<Doc>, asked = generation): ActionResult => {
    // The thread first: reading it applies the events waiting for the frame, whose onEvent may destroy or reset it.
    const base = deps.thread().sharedState.document as Doc;
    const refused = stale(asked);
    if (refused) return refused;
    const outer = drafting;
    drafting = true;
    let made: RecipeDelta;
    try {
      made = immer ? immer(base, recipe) : (loadedEngine() as Engine).copyDelta(base, recipe);
    } finally {
      drafting = outer;
    }
    // The recipe may have destroyed or reset the thread it edited: its edit is not applied to what is left.
    return stale(asked) ?? (made.refusal ? deps.refuse(made.refusal) : commit(made.delta));
  };
  /** Records `delta` as an edit of the thread, once the document is found to take it. */
  const commit = (delta: JsonPatchOperation[]): ActionResult => {
    if (delta.length === 0) return status();
    // Checked before it is logged: an edit the document cannot take (through a member it only inherits, or nested too deep) is refused, not recorded as done.
    const why = (loadedEngine() as Engine).clientDeltaRefusal(deps.thread(), delta);
    if (why) return deps.refuse({ code: 'EDIT_REFUSED', message: `The edit was not applied: ${why}.` });
    deps.apply({ type: 'state_edit', delta });
    return status();
  };
  /**
   * An edit given as JSON Patch operations: recorded as a recipe's patches are, with no immer draft, which copies an
   * object it writes into (all 100,000 keys of one). Taken as JSON now, applied in its turn.
   */
  const patch = (operations: readonly unknown[]): Promise<ActionResult> => {
    if (deps.gone()) return Promise.resolve(gone());
    let delta: JsonPatchOperation[];
    try {
      delta = jsonOperations(operations);
    } catch (e) {
      return Promise.resolve(
        deps.refuse(e instanceof RangeError ? tooDeep() : { code: 'EDIT_REFUSED', message: `The edit was not applied: ${thrownText(e)}.` }),
      );
    }
    // The document first: reading it applies the events waiting for the frame, whose onEvent may destroy or reset it.
    const apply = (asked: number) => {
      deps.thread();
      return stale(asked) ?? commit(delta);
    };
    const asked = generation;
    return idle()
      ? now(() => apply(asked))
      : enqueue(async (asked) => {
          try {
            await loadEngine();
          } catch (error) {
            return deps.refuse(unavailable(error));
          }
          return apply(asked);
        });
  };
  const replace = (document: Doc, asked = generation): ActionResult => {
    const current = deps.thread().sharedState.document;
    const refused = stale(asked);
    if (refused) return refused;
    let owned: unknown;
    try {
      // As JSON, as an edit is: what the agent will get, and what a saved log holds.
      const json = jsonDocument(document, current);
      if (!nestsWithin(json, MAX_JSON_DEPTH, current)) return deps.refuse(tooDeep());
      owned = ownJson(json, current);
    } catch (e) {
      if (e instanceof RangeError || e instanceof JsonTooDeep) return deps.refuse(tooDeep());
      // As for an edit: a cycle, a BigInt, a getter or toJSON that throws.
      return deps.refuse({ code: 'EDIT_REFUSED', message: `The document was not set: ${thrownText(e)}.` });
    }
    deps.apply({ type: 'state_set', document: owned });
    return status();
  };
  // With nothing waiting (and immer loaded, for a recipe), an edit applies at once: a run started right after it carries it.
  // From onEvent, right after the event: on the document the event left.
  const now = (work: () => ActionResult): Promise<ActionResult> =>
    new Promise((resolve, reject) =>
      deps.later(() => {
        try {
          resolve(work());
        } catch (e) {
          reject(e);
        }
      }),
    );
  // An edit is applied as JSON Patch, by the engine: it waits for the engine as well as for immer.
  const update = (recipe: SharedStateRecipe<Doc> | readonly JsonPatchOperation[]): Promise<ActionResult> => {
    if (Array.isArray(recipe)) return patch(recipe);
    return edits(recipe as SharedStateRecipe<Doc>);
  };
  const edits = (recipe: SharedStateRecipe<Doc>): Promise<ActionResult> => {
    const immer = loaded;
    const asked = generation;
    // Before immer has loaded (it loads now), on a copy of the document: an edit with nothing before it applies at once.
    if (!immer) loadImmer().catch(() => undefined);
    return idle()
      ? now(() => edit(immer, recipe, asked))
      : enqueue(async (asked) => {
          let ready: Drafted;
          try {
            [ready] = await Promise.all([loadImmer(), loadEngine()]);
          } catch (error) {
            // Nothing was edited; the next edit loads them again.
            return deps.refuse(unavailable(error));
          }
          return edit(ready, recipe, asked);
        });
  };
  const set = (next: Doc | SharedStateRecipe<Doc>): Promise<ActionResult> => {
    if (typeof next === 'function') return update(next as SharedStateRecipe<Doc>);
    const asked = generation;
    let document = next;
    let applied = false;
    const apply = (at: number) => {
      applied = true;
      return replace(document, at);
    };
    const result = waiting === 0 && !drafting ? now(() => apply(asked)) : enqueue(apply);
    // Applied later (after edits waiting, or after the event whose onEvent asked): the document as the app gave it now,
    // whatever the app does with its object meanwhile. One JSON cannot copy (a cycle) goes as it is, to be refused.
    if (!applied) {
      try {
        document = (asJson(next) ?? null) as Doc;
      } catch {
        document = next;
      }
    }
    return result;
  };
  return {
    update,
    set,
    /** The thread was reset: the edits still waiting are dropped (each answers THREAD_RESET). */
    forget() {
      generation++;
    },
    /**
     * Resolves once every edit asked for so far has applied (a run waits for them, so it sends them): a recipe's own
     * too, when it asks for the run as it runs.
     */
    settled: (): Promise<void> | undefined => (waiting === 0 && !drafting ? undefined : queue.then(() => undefined)),
  };
}
