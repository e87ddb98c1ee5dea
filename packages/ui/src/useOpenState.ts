'use client';

import * as React from 'react';
import { useThreadKey } from './useStoreSwitch.js';

/**
 * Open state of a disclosure, controlled (`open` given) or uncontrolled (from
 * `defaultOpen`). The uncontrolled state is the thread's (`useThreadKey`):
 * another thread, or a reset, opens as a fresh mount would, though it shows
 * a record under the same id.
 */
export function useOpenState(
  open: boolean | undefined,
  defaultOpen: boolean,
  onOpenChange: ((open: boolean) => void) | undefined,
): [boolean, (next: boolean) => void] {
  const thread = useThreadKey();
  const [own, setOwn] = React.useState({ thread, open: defaultOpen });
  const controlled = open !== undefined;
  const value = controlled ? open : own.thread === thread ? own.open : defaultOpen;
  const set = React.useCallback(
    (next: boolean) => {
      if (!controlled) setOwn({ thread, open: next });
      onOpenChange?.(next);
    },
    [controlled, onOpenChange, thread],
  );
  return [value, set];
}
