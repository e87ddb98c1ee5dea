'use client';

import * as React from 'react';
import type { LazyModule, LazyState } from './lazyModule.js';

/**
 * What a server render shows, and so what hydration starts from: not loaded
 * (plain text, the form's placeholder), whatever the browser has loaded by
 * then; React moves on to the loaded state right after hydrating.
 */
const SERVER_STATE: LazyState<never> = { status: 'idle' };
const serverState = () => SERVER_STATE;

/**
 * The state of a module loaded on demand, loading it once the component has
 * mounted (and `enabled`): `ready` at the first render when it loaded before,
 * so nothing flashes once a chunk is there. A load that failed is tried again
 * by the next component that mounts, never in a loop by the one that saw it
 * fail (offline, that would spin); `retry` asks again.
 */
export function useLazyModule<T>(lazy: LazyModule<T>, enabled = true): { state: LazyState<T>; retry: () => void } {
  const state = React.useSyncExternalStore(lazy.subscribe, lazy.state, serverState);
  React.useEffect(() => {
    if (!enabled) return;
    // On mount, or when enabled: a load that failed before is tried again by a component that appears later (not
    // when the state changes, so a failure seen while mounted is never retried in a loop). The rejection is the
    // state's `failed`, which the component shows.
    const { status } = lazy.state();
    if (status === 'idle' || status === 'failed') lazy.load().catch(() => undefined);
  }, [lazy, enabled]);
  const retry = React.useCallback(() => void lazy.load().catch(() => undefined), [lazy]);
  return { state, retry };
}
