'use client';

import * as React from 'react';

/** Open state of a disclosure, controlled (`open` given) or uncontrolled (from `defaultOpen`). */
export function useOpenState(
  open: boolean | undefined,
  defaultOpen: boolean,
  onOpenChange: ((open: boolean) => void) | undefined,
): [boolean, (next: boolean) => void] {
  const [own, setOwn] = React.useState(defaultOpen);
  const controlled = open !== undefined;
  const value = controlled ? open : own;
  const set = React.useCallback(
    (next: boolean) => {
      if (!controlled) setOwn(next);
      onOpenChange?.(next);
    },
    [controlled, onOpenChange],
  );
  return [value, set];
}
