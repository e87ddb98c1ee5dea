'use client';

import { useAgentStore } from '@aguikit/react';
import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type Range,
  type VirtualItem,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';

/** What a list passes: everything but how the virtualizer observes, scrolls, reports and picks rows, which this hook owns. */
export type ListVirtualizerOptions = Omit<
  VirtualizerOptions<HTMLElement, HTMLElement>,
  'observeElementRect' | 'observeElementOffset' | 'scrollToFn' | 'onChange' | 'rangeExtractor'
>;

export interface ListVirtualizer {
  /** The rows to render (keys and indexes; their offsets are written to the DOM, see `rowRef`). */
  items: readonly VirtualItem[];
  /** For each row element, which carries `data-index`: measures it and positions it (`transform`). */
  rowRef: (el: HTMLElement | null) => void;
  /** For the element that spans the whole list: gets the total size as its `height`. */
  sizerRef: (el: HTMLElement | null) => void;
}

interface Rendered {
  first: number;
  last: number;
}

/**
 * @tanstack/virtual-core's `Virtualizer` bound to React so that the list
 * commits at most once per animation frame, and only when it must:
 *
 * - Sizes and offsets never go through React: a row's offset (`transform`)
 *   and the total size (`height`) are written to the DOM as soon as the
 *   virtualizer knows them (a row measured by its ResizeObserver, a scroll).
 * - The rows rendered change only when the rows to show are not all
 *   rendered already. Rows that leave the window while every row to show is
 *   still rendered (the top rows, as the last message grows under a reader
 *   who follows it) stay until the next commit, so a growing row or a
 *   scroll inside the rendered rows commits nothing.
 * - A commit the list needs is folded into the agent store's next
 *   notification, so it renders in the same commit as the store's frame
 *   (the store flushes once per animation frame). Without one, it commits in
 *   an animation frame in which the store has not notified: from a scroll
 *   event, in that frame's callbacks, after the store's flush and before
 *   paint; otherwise at default priority, which a store flush later in the
 *   frame still takes along.
 */
export function useListVirtualizer(options: ListVirtualizerOptions): ListVirtualizer {
  const store = useAgentStore();
  const [, rerender] = React.useReducer((n: number) => n + 1, 0);
  const [binding] = React.useState(() => bind(rerender));
  const { virtualizer } = binding;
  virtualizer.setOptions({
    ...options,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange: binding.onChange,
    rangeExtractor: binding.extractRange,
  });
  const items = virtualizer.getVirtualItems();

  useBrowserLayoutEffect(() => {
    const cleanup = virtualizer._didMount();
    return () => {
      binding.dispose();
      cleanup();
    };
  }, [virtualizer, binding]);
  useBrowserLayoutEffect(() => store.subscribe(binding.onStoreChange), [store, binding]);
  useBrowserLayoutEffect(() => {
    virtualizer._willUpdate();
    binding.committed(items);
  });

  return { items, rowRef: binding.rowRef, sizerRef: binding.sizerRef };
}

/** The list's state outside React, and the callbacks the virtualizer, the store and the elements call. */
function bind(rerender: () => void) {
  const live = {
    /** The rows of the last commit, a contiguous run of indexes. */
    rendered: null as Rendered | null,
    /** The rows to show are not the rows rendered: a commit is due. */
    pending: false,
    /** The animation-frame callback requested for the commit due, if any. */
    queued: 0,
    /** That callback was requested from a scroll event: it runs in the frame the event belongs to. */
    urgent: false,
    /** When the store last notified (`performance.now()`). */
    storeAt: Number.NEGATIVE_INFINITY,
    mounted: false,
    sizer: null as HTMLElement | null,
  };
  // What this hook last wrote to each element (React never writes these properties: they are not in the markup).
  const written = new WeakMap<HTMLElement, string>();
  const write = (el: HTMLElement, property: 'height' | 'transform', value: string) => {
    if (written.get(el) === value) return;
    written.set(el, value);
    el.style[property] = value;
  };

  /** The rows to show, plus overscan; the rows rendered instead while they hold all of those. */
  const extractRange = (range: Range): number[] => {
    const wanted = defaultRangeExtractor(range);
    const first = wanted[0];
    const last = wanted[wanted.length - 1];
    const r = live.rendered;
    if (!r || first === undefined || last === undefined || first < r.first || last > r.last || r.last >= range.count) return wanted;
    return Array.from({ length: r.last - r.first + 1 }, (_, i) => r.first + i);
  };

  /** Whether the rows the virtualizer wants rendered are other than the rows of the last commit. */
  const differs = (): boolean => {
    const indexes = virtualizer.getVirtualIndexes();
    const first = indexes[0];
    const last = indexes[indexes.length - 1];
    const r = live.rendered;
    if (first === undefined || last === undefined) return r !== null;
    return r === null || r.first !== first || r.last !== last;
  };

  /** Writes the total size, and the offset of every row in the DOM. */
  const place = () => {
    const sizer = live.sizer;
    if (!sizer) return;
    write(sizer, 'height', `${virtualizer.getTotalSize()}px`);
    // The items are the layout shifted by a correction the virtualizer holds back (iOS momentum); the other rows move with them.
    const items = virtualizer.getVirtualItems();
    const sample = items[0];
    const shift = sample ? (virtualizer.measurementsCache[sample.index]?.start ?? sample.start) - sample.start : 0;
    for (const el of virtualizer.elementsCache.values()) {
      if (el.isConnected) position(el, shift);
    }
  };

  const position = (el: HTMLElement, shift: number) => {
    const item = virtualizer.measurementsCache[Number(el.dataset.index)];
    if (item) write(el, 'transform', `translateY(${item.start - shift}px)`);
  };

  const onFrame = (frameStart: number) => {
    live.queued = 0;
    if (!live.pending) return;
    if (live.storeAt >= frameStart) {
      // The store committed in this frame already (and found no commit due then): the next frame.
      request(false);
      return;
    }
    if (!differs()) {
      live.pending = false;
      return;
    }
    if (live.urgent) ReactDOM.flushSync(rerender);
    else rerender();
  };

  const request = (fromScroll: boolean) => {
    live.pending = true;
    if (live.queued) return;
    live.urgent = fromScroll;
    live.queued = requestAnimationFrame(onFrame);
  };

  const dispose = () => {
    if (live.queued) cancelAnimationFrame(live.queued);
    live.queued = 0;
    live.pending = false;
  };

  const onChange = () => {
    place();
    if (differs()) request(typeof window !== 'undefined' && window.event?.type === 'scroll');
  };

  const onStoreChange = () => {
    live.storeAt = performance.now();
    // An update scheduled here joins the commit of the store's own update.
    if (live.pending && differs()) rerender();
  };

  const committed = (items: readonly VirtualItem[]) => {
    const first = items[0];
    const last = items[items.length - 1];
    live.rendered = first && last ? { first: first.index, last: last.index } : null;
    live.pending = false;
    const mounting = !live.mounted;
    live.mounted = true;
    place();
    if (!differs()) return;
    // On mount the first render could not measure the viewport: render the rows before the first paint.
    if (mounting) rerender();
    else request(false);
  };

  const virtualizer: Virtualizer<HTMLElement, HTMLElement> = new Virtualizer<HTMLElement, HTMLElement>({
    count: 0,
    getScrollElement: () => null,
    estimateSize: () => 0,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange,
    rangeExtractor: extractRange,
  });

  const rowRef = (el: HTMLElement | null) => {
    virtualizer.measureElement(el);
    if (el) position(el, 0);
  };

  const sizerRef = (el: HTMLElement | null) => {
    live.sizer = el;
    if (el) place();
  };

  return { virtualizer, onChange, extractRange, onStoreChange, committed, dispose, rowRef, sizerRef };
}
