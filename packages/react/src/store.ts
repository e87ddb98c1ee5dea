import {
  createRunController,
  type LoggedEvent,
  type RunActions,
  type RunController,
  type RunControllerOptions,
  type RunSnapshot,
  type SessionLog,
  type ThreadState,
} from '@aguikit/core';
import { reportThrown } from '@aguikit/core/bindings';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type OptionsLayer, optionLayers, type StoreSettings } from './layers.js';
import type { AgentStoreState } from './types.js';

/** The controller's actions, as the store's state and `useAgentRun` hold them. */
export const actionsOf = <Doc>(from: RunActions<Doc>): RunActions<Doc> =>
  Object.fromEntries(
    (['run', 'stop', 'resume', 'cancelInterrupts', 'updateSharedState', 'setState', 'reconnect', 'retry', 'reset'] as const).map((k) => [
      k,
      from[k],
    ]),
  ) as unknown as RunActions<Doc>;

/** Whether this is a server render (no `window`), where nothing streams and no effect runs. */
export const onServer = typeof window === 'undefined';

/**
 * A thread's store for React: zustand's `getState`/`subscribe` over a
 * `RunController` from `@aguikit/core`, whose snapshot and actions it holds.
 * The rules (one run at a time, no new message while interrupts are open, one
 * resume for the same interrupts, errors as outcomes) are the controller's.
 */
export interface AgentStore<Doc = unknown> extends StoreApi<AgentStoreState<Doc>> {
  /** The headless controller behind the store. */
  readonly controller: RunController<Doc>;
  /** The agent events received since the last reset, in arrival order (append-only; `state.eventCount` says how many). */
  readonly log: { readonly entries: readonly LoggedEvent[] };
  /** Every change to what the user saw: agent events and the client's entries (see `replaySession`). */
  readonly session: SessionLog;
  /** The thread as it was after session entry `index` (time travel). */
  stateAt(index: number): ThreadState;
  /** The thread as it was right after agent event `index` of `log.entries` (a RangeError for an index with no event). */
  stateAfterEvent(index: number): ThreadState;
  /** Replaces callbacks, tools, context and the like without recreating the store (the source stays). */
  configure(options: StoreSettings<Doc>): void;
  /**
   * Options a component adds while it is mounted (what `useAgentRun(options)`
   * under a provider does): tools by name and context entries on top of the
   * store's, its `onEvent`, `onDiagnostic` and `onDecision` called beside the
   * store's, any other option overriding the store's until `remove()`. Layers
   * apply in the order they joined; one added again under the same `key` (a
   * component `<Activity>` hid and shows again) takes the place it first had.
   */
  layer(key?: object): OptionsLayer<Doc>;
  /** The store's clock (its `now` option, else the agent's time as it says it, else `Date.now`: see `RunController.now`): what interrupt expiry is measured with. */
  now(): number;
  /** Stops everything the thread runs and refuses every later action. */
  destroy(): void;
  /**
   * Holds the store for a component that created it: the last release
   * destroys it after a macrotask, unless it is held again by then (React's
   * StrictMode unmounts and mounts again at once). Returns the release.
   */
  retain(): () => void;
}

/**
 * Creates the store of one thread (a `RunController` bound to zustand).
 * Events are applied one batch per animation frame (terminal events at
 * once), so a token costs one store update per frame, not one per event.
 *
 * @example
 * const store = createAgentStore({ source: httpSseSource({ url: '/api/agent' }) });
 * await store.getState().run('Refund order A-1001');
 */
export function createAgentStore<Doc = unknown>(options: RunControllerOptions<Doc>): AgentStore<Doc> {
  const controller = createRunController<Doc>(options);
  const { source: _source, log: _log, ...settings } = options;
  const layers = optionLayers<Doc>(settings, controller.configure);
  const actions = actionsOf(controller);
  /**
   * The state a snapshot makes: a literal of its every field, with the actions. Not a spread of the snapshot: in V8 an
   * object spread from another and then given more properties takes new hidden classes each time, some 10 µs per store
   * update (one per event) where the literal takes a fiftieth of that.
   */
  const stateOf = (snap: RunSnapshot): AgentStoreState<Doc> => ({
    thread: snap.thread,
    connection: snap.connection,
    reconnecting: snap.reconnecting,
    failure: snap.failure,
    refusal: snap.refusal,
    inFlight: snap.inFlight,
    eventCount: snap.eventCount,
    logLength: snap.logLength,
    resets: snap.resets,
    decisions: snap.decisions,
    destroyed: snap.destroyed,
    capabilities: snap.capabilities,
    run: actions.run,
    stop: actions.stop,
    resume: actions.resume,
    cancelInterrupts: actions.cancelInterrupts,
    updateSharedState: actions.updateSharedState,
    setState: actions.setState,
    reconnect: actions.reconnect,
    retry: actions.retry,
    reset: actions.reset,
  });
  let last = stateOf(controller.getSnapshot());
  const store = createStore<AgentStoreState<Doc>>()(() => last);
  // zustand renders on a server from the store's first state: a server renders the thread as it is now (an app's store
  // that ran or was reset since). The browser hydrates from the first state, which a late boundary's HTML still shows.
  if (onServer) store.getInitialState = store.getState;
  // zustand tells its listeners in one loop: one of the app's that throws would leave the rest, the components'
  // among them, untold. Each is called on its own; what it throws is reported as the controller reports its own.
  const listen = store.subscribe;
  store.subscribe = (listener) =>
    listen((state, previous) => {
      try {
        listener(state, previous);
      } catch (e) {
        reportThrown(e);
      }
    });
  controller.subscribe(() => {
    // The state as the last update left it is replaced by a literal; one an app changed with setState is merged into, keeping its fields.
    if (store.getState() === last) {
      last = stateOf(controller.getSnapshot());
      store.setState(last, true);
    } else store.setState(controller.getSnapshot());
  });

  let holders = 0;
  let pendingDestroy: ReturnType<typeof setTimeout> | undefined;
  const retain = () => {
    // Held: a store made while rendering (`askCapabilities: 'when-held'`) asks the agent now, once.
    controller.askCapabilities();
    holders++;
    clearTimeout(pendingDestroy);
    pendingDestroy = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--holders === 0) pendingDestroy = setTimeout(() => holders === 0 && controller.destroy(), 0);
    };
  };

  const log = {
    get entries() {
      return controller.log.events;
    },
  };
  return Object.assign(store, {
    controller,
    log,
    session: controller.log,
    stateAt: controller.stateAt,
    stateAfterEvent: (index: number) => {
      const entry = Number.isInteger(index) ? controller.log.entryOf(index) : undefined;
      if (entry === undefined) throw new RangeError(`stateAfterEvent(${index}): the log holds no agent event at that index.`);
      return controller.stateAt(entry);
    },
    configure: layers.configure,
    layer: layers.layer,
    now: controller.now,
    destroy: controller.destroy,
    retain,
  });
}
