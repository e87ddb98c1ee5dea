'use client';

import * as React from 'react';

/**
 * Calls `reset` in the render in which the provider's store changed (another
 * thread is shown): what a component held of the last thread (an answer kept,
 * something said, a refusal) goes in that render, never shown with the new
 * thread. `reset` may set the component's own state and refs only.
 */
export function useStoreSwitch(store: object, reset: () => void): void {
  const [shown, setShown] = React.useState(store);
  if (shown !== store) {
    setShown(store);
    reset();
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
