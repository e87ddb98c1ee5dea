import { useCallback, useState } from 'react';

/** Open state of a disclosure, controlled (`open` given) or uncontrolled (from `defaultOpen`). */
export function useOpenState(
  open: boolean | undefined,
  defaultOpen: boolean,
  onOpenChange: ((open: boolean) => void) | undefined,
): [boolean, (next: boolean) => void] {
  const [own, setOwn] = useState(defaultOpen);
  const controlled = open !== undefined;
  const value = controlled ? open : own;
  const set = useCallback(
    (next: boolean) => {
      if (!controlled) setOwn(next);
      onOpenChange?.(next);
    },
    [controlled, onOpenChange],
  );
  return [value, set];
}
