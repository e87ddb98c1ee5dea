'use client';

import * as React from 'react';

/**
 * A callback ref that sets both `own` and the ref a part forwards: for a part
 * that needs its DOM node itself and passes it on to the app too.
 */
export function useMergedRef<T>(own: React.MutableRefObject<T | null>, forwarded: React.ForwardedRef<T>): (node: T | null) => void {
  return React.useCallback(
    (node: T | null) => {
      own.current = node;
      if (typeof forwarded === 'function') forwarded(node);
      else if (forwarded) forwarded.current = node;
    },
    [own, forwarded],
  );
}
