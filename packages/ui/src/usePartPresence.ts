'use client';

import * as React from 'react';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';

/** What a root knows of a part that registers itself with it (a Header its name points at). */
export interface PartPresence {
  /** Whether the part is rendered inside the root. */
  present: boolean;
  /** For the part's layout effect: registers it, and returns what unregisters it. */
  register: () => () => void;
}

/**
 * Whether a part a root's ARIA points at is rendered inside it (a Header
 * whose ids name the root). Assumed so until the root's first layout shows
 * that none registered: the composed defaults, which always render it,
 * render once, and a root composed without it renders once more, without
 * the reference.
 */
export function usePartPresence(): PartPresence {
  const count = React.useRef(0);
  const [present, setPresent] = React.useState(true);
  const shown = React.useRef(true);
  const show = React.useCallback((next: boolean) => {
    if (shown.current === next) return;
    shown.current = next;
    setPresent(next);
  }, []);
  const register = React.useCallback(() => {
    count.current += 1;
    show(true);
    return () => {
      count.current -= 1;
      if (count.current === 0) show(false);
    };
  }, [show]);
  // A root's layout effects run after its parts': by now every part rendered has registered.
  useBrowserLayoutEffect(() => {
    if (count.current === 0) show(false);
  }, [show]);
  return { present, register };
}

/** Registers a part with its root's `PartPresence` while it is rendered. */
export function useRegisterPart(presence: PartPresence): void {
  const { register } = presence;
  useBrowserLayoutEffect(register, [register]);
}
