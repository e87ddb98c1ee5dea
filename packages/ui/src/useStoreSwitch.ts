'use client';

import { useAgentSelector, useAgentStore } from '@aguikit/react';
import * as React from 'react';

/**
 * Calls `reset` in the render in which another thread is shown: the
 * provider's store changed, or `thread` (`useThreadKey()`, given by a
 * component that keeps something per thread) did, as a reset makes it. What
 * a component held of the last thread (an answer kept, something said, a
 * refusal) goes in that render, never shown with the new thread. `reset` is
 * told whether the store changed, and may set the component's own state and
 * refs only.
 */
export function useStoreSwitch(store: object, reset: (anotherStore: boolean) => void, thread?: string): void {
  const [shown, setShown] = React.useState({ store, thread });
  if (shown.store !== store || shown.thread !== thread) {
    setShown({ store, thread });
    reset(shown.store !== store);
  }
}

const keys = new WeakMap<object, number>();
let next = 0;

/** A key per store, for what must be made anew for another thread (an interrupt's card under an id both threads use). */
export function storeKey(store: object): number {
  let key = keys.get(store);
  if (key === undefined) {
    key = next++;
    keys.set(store, key);
  }
  return key;
}

/**
 * Names the thread shown: its id and how many resets it has had (a store's
 * own number stands for an id it does not have). Another thread shown, or a
 * reset, gives another key; another store showing the same thread (a
 * replay's next step, built from a longer log) gives the same one. What a
 * reader opened, folded or asked to see whole is kept under it.
 */
export function useThreadKey(): string {
  const store = useAgentStore();
  const id = useAgentSelector((s) => s.thread.threadId);
  const resets = useAgentSelector((s) => s.resets);
  return id === undefined ? `store ${storeKey(store)}, reset ${resets}` : `thread ${id}, reset ${resets}`;
}
