'use client';

import { type AgentSource, loadEngine, type SessionEntry } from '@aguikit/core';
import * as React from 'react';
import { type AgentStore, createAgentStore, onServer } from './store.js';
import type { AgentStoreOptions } from './types.js';

/** What a server render's store streams from: nothing (a server render never runs the agent). */
const SERVER_SOURCE: AgentSource = {
  async *run() {},
};

/**
 * The options of a store a component makes while rendering. It asks the
 * agent nothing until it is held (`askCapabilities: 'when-held'`): a render
 * React throws away sends nothing. In a server render it only renders the
 * thread it starts with, so it sends nothing and asks the agent nothing, and
 * it draws no id and reads no clock of its own (`threadId` and `now` fixed
 * unless the app gives them): a prerender (Next.js `cacheComponents`) must
 * give the same HTML every time. The browser makes the real store as it
 * hydrates; an empty thread renders the same either way.
 */
export function ownedOptions<Doc>(options: AgentStoreOptions<Doc>): AgentStoreOptions<Doc> {
  const held: AgentStoreOptions<Doc> = { ...options, askCapabilities: 'when-held' };
  if (!onServer) return held;
  return { ...held, source: SERVER_SOURCE, threadId: options.threadId ?? SERVER_THREAD_ID, now: options.now ?? (() => 0) };
}

/** The id of the thread a server render of a component's own store shows, when the app names none. */
const SERVER_THREAD_ID = 'thread-server-render';

/**
 * The store a component makes while rendering (`ownedOptions`). In the
 * browser, one under an id of its own (the app named none, and gave no log)
 * hydrates from the thread the server rendered, under the server's id, and
 * shows its own id as soon as it has hydrated: a component that shows the
 * thread's id hydrates without a mismatch.
 */
export function createOwnedStore<Doc>(options: AgentStoreOptions<Doc>): AgentStore<Doc> {
  const store = createAgentStore<Doc>(ownedOptions(options));
  if (onServer || options.threadId !== undefined || options.log !== undefined) return store;
  const first = store.getState();
  const rendered = { ...first, thread: { ...first.thread, threadId: SERVER_THREAD_ID } };
  store.getInitialState = () => rendered;
  return store;
}

/**
 * The store a component creates and owns (`useAgentRun` with a source,
 * `AgentProvider` with options): made once, held while the component is
 * mounted, destroyed once it unmounts (StrictMode's unmount and mount again
 * keep it). React's `<Activity>` runs the effect cleanups of a component it
 * hides but keeps its state: a store destroyed while its component was
 * hidden is made again (one the app destroyed while it was shown is not), from its session log, which replays exactly, so the
 * conversation is there and the actions work. A stream it had open was cut
 * off with it and shows so, as after a reload. It is made again as the
 * component renders once it sees the store destroyed (hidden, or as it is
 * shown), so its children render with the new store before any effect runs
 * as they are shown: an effect of theirs that runs the agent then does so on
 * the new store. `create` makes the store, from `log` when one is given.
 */
export function useOwnedStore<Doc>(create: ((log?: readonly SessionEntry[]) => AgentStore<Doc>) | null): AgentStore<Doc> | null {
  // StrictMode calls a state initializer twice and keeps the first answer: the second call gets that store, rather than
  // making a second controller. A store made here asks the agent nothing until it is held (a render React throws away,
  // a suspended mount or a hidden <Activity>, sends nothing).
  const made = React.useRef<AgentStore<Doc> | null>(null);
  const [own, setOwn] = React.useState(() => {
    made.current ??= suspending(create);
    return made.current;
  });
  const latest = React.useRef(create);
  React.useEffect(() => {
    latest.current = create;
  });
  /** The store made again for a destroyed one: StrictMode renders twice for it, and the second render takes the first's. */
  const remade = React.useRef<{ from: AgentStore<Doc>; to: AgentStore<Doc> | null } | null>(null);
  /**
   * The store the component let go of alive (hidden): destroyed from then on, it is made again. One the app destroyed
   * otherwise (while it was shown, or as it mounted, from a child's effect that runs before the component holds it)
   * stays destroyed, hidden and shown again too; made again, a child's effect would destroy that one as well, for ever.
   */
  const released = React.useRef<AgentStore<Doc> | null>(null);
  // The store's destruction re-renders the component (hidden, React renders it when idle, else as it shows it).
  const destroyed = React.useSyncExternalStore(own ? own.subscribe : noStore, () => own?.getState().destroyed ?? false, notDestroyed);
  // Destroyed after the component let it go (hidden): made again while rendering, so React renders the component again
  // at once, with the new store, before its children.
  if (own && destroyed && released.current === own) setOwn(madeAgain(remade, own, create));
  React.useEffect(() => {
    if (!own) return;
    if (own.getState().destroyed) {
      if (released.current === own) setOwn(madeAgain(remade, own, latest.current));
      return;
    }
    released.current = null;
    const release = own.retain();
    return () => {
      if (!own.getState().destroyed) released.current = own;
      release();
    };
  }, [own]);
  return own;
}

/** The store made again for `from`, made once (kept in `remade`) however often React renders or runs the effect. */
function madeAgain<Doc>(
  remade: React.RefObject<{ from: AgentStore<Doc>; to: AgentStore<Doc> | null } | null>,
  from: AgentStore<Doc>,
  make: ((log?: readonly SessionEntry[]) => AgentStore<Doc>) | null,
): AgentStore<Doc> | null {
  if (remade.current?.from !== from) remade.current = { from, to: make ? make(from.session.entries) : null };
  return remade.current.to;
}

/** Why the engine did not load, for the render its failed load wakes (the next mount asks again). */
let lost: unknown;

/**
 * `create()`. A saved log of agent events, before anything has loaded the
 * engine, suspends the render until it has: a streaming server render waits
 * for it and renders the conversation, and hydration keeps the server's HTML
 * meanwhile. An engine that fails to load is thrown to the error boundary.
 */
function suspending<Doc>(create: (() => AgentStore<Doc>) | null): AgentStore<Doc> | null {
  try {
    return create?.() ?? null;
  } catch (e) {
    if ((e as { code?: unknown } | null)?.code !== 'ENGINE_NOT_LOADED') throw e;
    if (lost) {
      const error = lost;
      // Kept for React's own second try of this render, in the same task; a later mount asks again.
      queueMicrotask(() => {
        lost = undefined;
      });
      throw error;
    }
    throw loadEngine().catch((error: unknown) => {
      lost = error;
      // For the renders this failure wakes, soon after; a mount made later (the reader left and came back) asks again.
      setTimeout(() => {
        if (lost === error) lost = undefined;
      }, 1_000);
    });
  }
}

const noStore = () => () => undefined;
const notDestroyed = () => false;
