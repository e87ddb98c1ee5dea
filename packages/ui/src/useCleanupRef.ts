'use client';

import * as React from 'react';

/**
 * A callback ref whose `setup` returns a cleanup, called the same way by
 * React 18 and 19. React 19 lets a callback ref return its cleanup; React 18
 * ignores the return value (and warns), calling the ref with `null` instead.
 * This ref returns nothing: it runs the last cleanup itself when it is called
 * again, with `null` or with another element.
 *
 * @example
 * const ref = useCleanupRef((el: HTMLElement) => {
 *   el.addEventListener('scroll', onScroll);
 *   return () => el.removeEventListener('scroll', onScroll);
 * }, [onScroll]);
 */
export function useCleanupRef<T extends Element>(
  setup: (element: T) => (() => void) | undefined,
  deps: React.DependencyList,
): (element: T | null) => void {
  const cleanup = React.useRef<(() => void) | undefined>(undefined);
  return React.useCallback(
    (element: T | null) => {
      const last = cleanup.current;
      cleanup.current = undefined;
      last?.();
      if (element) cleanup.current = setup(element);
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `setup` depends on, as with useCallback.
    deps,
  );
}
