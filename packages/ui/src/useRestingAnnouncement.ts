'use client';

import * as React from 'react';

/** How long what a panel shows must rest before it is said: a key held down moves through rows faster. */
export const RESTING_MS = 400;

/**
 * A polite status's words that follow the reader's input only once it rests:
 * `say` replaces what waits to be said, so holding an arrow key through a
 * list, or typing a filter, is said once, where it stopped. `silence`
 * empties the region at once (another thread shown).
 */
export function useRestingAnnouncement(): { announcement: string; say: (text: string) => void; silence: () => void } {
  const [announcement, setAnnouncement] = React.useState('');
  const waiting = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const say = React.useCallback((text: string) => {
    clearTimeout(waiting.current);
    waiting.current = setTimeout(() => setAnnouncement(text), RESTING_MS);
  }, []);
  const silence = React.useCallback(() => {
    clearTimeout(waiting.current);
    setAnnouncement('');
  }, []);
  React.useEffect(() => () => clearTimeout(waiting.current), []);
  return { announcement, say, silence };
}

/**
 * `value` as a live region should show it: a change waits until the value
 * has rested `RESTING_MS`, so a burst of changes (an agent's steps, one after
 * another) is said once, where it stopped. The first value that is not
 * undefined shows at once, and so does the value of a new `scope` (another
 * run, another thread): what rested in one is never shown as the other's.
 */
export function useRestingValue<T>(value: T, ...scope: readonly unknown[]): T {
  const [shown, setShown] = React.useState({ value, scope });
  const sameScope = shown.scope.length === scope.length && shown.scope.every((part, i) => Object.is(part, scope[i]));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `scope` counts through `sameScope` (compared part by part: a new array of the same parts is the same scope).
  React.useEffect(() => {
    if (sameScope && Object.is(value, shown.value)) return;
    if (!sameScope || shown.value === undefined) {
      setShown({ value, scope });
      return;
    }
    const waiting = setTimeout(() => setShown({ value, scope }), RESTING_MS);
    return () => clearTimeout(waiting);
  }, [value, shown, sameScope]);
  return sameScope ? shown.value : value;
}
