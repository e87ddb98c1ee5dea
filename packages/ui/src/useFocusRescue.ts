'use client';

import * as React from 'react';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useMergedRef } from './useMergedRef.js';

/** What focus goes to in a panel that lost its focused element: a control of its own that stays. */
const STAYS = '[tabindex="-1"], input:not([disabled]), button:not([disabled]), [tabindex="0"]';

/**
 * Keeps focus off `<body>` when the element that held it inside a panel goes
 * (its list emptied by a new thread): focus moves to the panel's first
 * control, where a keyboard user can go on, or to the panel itself when it
 * has none left. Spread `handlers` on the panel's
 * root and merge `ref` into its ref; the panel's own onFocus and onBlur still
 * run.
 */
export function useFocusRescue<T extends HTMLElement>(
  forwarded: React.ForwardedRef<T>,
  own: { onFocus?: React.FocusEventHandler<T> | undefined; onBlur?: React.FocusEventHandler<T> | undefined },
) {
  const root = React.useRef<T | null>(null);
  // A focused element that is removed fires no blur: this stays true until focus leaves the panel.
  const inside = React.useRef(false);
  useBrowserLayoutEffect(() => {
    const panel = root.current;
    if (!panel || !inside.current) return;
    const active = panel.ownerDocument.activeElement;
    if (active && active !== panel.ownerDocument.body && active.isConnected) return;
    inside.current = false;
    const control = panel.querySelector<HTMLElement>(STAYS);
    if (control) return control.focus();
    // A panel with nothing left to focus (an empty state) takes focus itself, as a region a reader can leave.
    if (!panel.hasAttribute('tabindex')) panel.setAttribute('tabindex', '-1');
    panel.focus();
  });
  const ref = useMergedRef(root, forwarded);
  const { onFocus, onBlur } = own;
  const handlers = {
    onFocus: (event: React.FocusEvent<T>) => {
      inside.current = true;
      onFocus?.(event);
    },
    onBlur: (event: React.FocusEvent<T>) => {
      if (!root.current?.contains(event.relatedTarget as Node | null)) inside.current = false;
      onBlur?.(event);
    },
  };
  return { ref, handlers };
}
