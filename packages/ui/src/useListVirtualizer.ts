'use client';

import { useAgentStore } from '@aguikit/react';
import {
  defaultRangeExtractor,
  elementScroll,
  measureElement,
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
  'observeElementRect' | 'observeElementOffset' | 'scrollToFn' | 'onChange' | 'rangeExtractor' | 'measureElement'
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
  /** A row rendered apart from the run (the one holding focus), if any. */
  held: number | undefined;
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
 * - The row that holds focus stays rendered wherever the list is scrolled,
 *   so focus (and where Tab goes on from) never falls to `<body>`.
 * - A row across the top of the view that the list's new width reflowed
 *   keeps the reader as far through it as they were (see `shouldAdjust`).
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
    rangeExtractor: binding.extractorFor(options),
    measureElement: binding.measure,
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
    /** The row that holds focus (its index and key): kept rendered wherever the list is scrolled, so focus stays in it. */
    focused: null as { index: number; key: unknown } | null,
  };
  // What this hook last wrote to each element (React never writes these properties: they are not in the markup).
  const written = new WeakMap<HTMLElement, string>();
  const write = (el: HTMLElement, property: 'height' | 'transform', value: string) => {
    if (written.get(el) === value) return;
    written.set(el, value);
    el.style[property] = value;
  };

  /** Where the focused row is now (rows may have come before it), if it is still in the list. */
  const focusedIndex = (count: number): number | undefined => {
    const focused = live.focused;
    if (!focused) return undefined;
    const keyOf = virtualizer.options.getItemKey;
    if (focused.index < count && keyOf(focused.index) === focused.key) return focused.index;
    for (let i = 0; i < count; i++) {
      if (keyOf(i) === focused.key) {
        focused.index = i;
        return i;
      }
    }
    live.focused = null;
    return undefined;
  };

  /** The rows to show, plus overscan (the rows rendered instead while they hold all of those), and the focused row. */
  const extractRange = (range: Range): number[] => {
    const wanted = defaultRangeExtractor(range);
    const first = wanted[0];
    const last = wanted[wanted.length - 1];
    const r = live.rendered;
    const run =
      !r || first === undefined || last === undefined || first < r.first || last > r.last || r.last >= range.count
        ? wanted
        : Array.from({ length: r.last - r.first + 1 }, (_, i) => r.first + i);
    const held = focusedIndex(range.count);
    const from = run[0];
    const to = run[run.length - 1];
    if (held === undefined || from === undefined || to === undefined || (held >= from && held <= to)) return run;
    return held < from ? [held, ...run] : [...run, held];
  };

  /**
   * The range extractor to pass with `options`: the virtualizer picks rows
   * again only when the range, the count or the extractor changed, so when
   * the focused row is no longer at its index (a snapshot moved it, the count
   * the same) a new one makes it look for the row again.
   */
  const extractorFor = (options: ListVirtualizerOptions): ((range: Range) => number[]) => {
    const focused = live.focused;
    const keyOf = options.getItemKey ?? ((index: number) => index);
    if (!focused || (focused.index < options.count && keyOf(focused.index) === focused.key)) return extractRange;
    return (range) => extractRange(range);
  };

  /** The run of rows of `indexes` (ascending), and the row apart from it (the focused one), if any. */
  const split = (indexes: readonly number[]): Rendered | null => {
    let first = indexes[0];
    let last = indexes[indexes.length - 1];
    if (first === undefined || last === undefined) return null;
    let held: number | undefined;
    const second = indexes[1];
    const beforeLast = indexes[indexes.length - 2];
    if (second !== undefined && second !== first + 1) {
      held = first;
      first = second;
    } else if (beforeLast !== undefined && beforeLast !== last - 1) {
      held = last;
      last = beforeLast;
    }
    return { first, last, held };
  };

  /** Whether the rows the virtualizer wants rendered are other than the rows of the last commit. */
  const differs = (): boolean => {
    const wanted = split(virtualizer.getVirtualIndexes());
    const r = live.rendered;
    if (!wanted) return r !== null;
    return r === null || r.first !== wanted.first || r.last !== wanted.last || r.held !== wanted.held;
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

  // A row's width when last measured: a row whose width changed (the list resized) was reflowed, not grown by new text.
  const widths = new WeakMap<Element, number>();
  let reflowed = false;
  const measure: typeof measureElement<HTMLElement> = (el, entry, instance) => {
    const width = entry?.borderBoxSize?.[0]?.inlineSize ?? el.offsetWidth;
    const before = widths.get(el);
    widths.set(el, width);
    reflowed = before !== undefined && Math.abs(before - width) >= 1;
    return measureElement(el, entry, instance);
  };

  /**
   * Whether a row's new size moves the scroll position with it (the
   * virtualizer's own rule: a row above the view, or measured for the first
   * time with its top above it). A reflowed row across the top of the view
   * (the list got wider or narrower) moves it by as much of its change as
   * lies above the view, so the reader stays as far through it as they were:
   * the rule would keep its top still and let everything after it slide
   * under them, rows away on a phone turned. A row that grew with new text
   * keeps its top still.
   */
  const shouldAdjust = (item: VirtualItem, delta: number, instance: Virtualizer<HTMLElement, HTMLElement>): boolean => {
    const offset = instance.scrollOffset ?? 0;
    if (!instance.itemSizeCache.has(item.key)) return item.start < offset;
    if (item.end <= offset) return instance.scrollDirection !== 'backward';

    if (reflowed && item.start < offset && item.size > 0) {
      const above = Math.round((delta * (offset - item.start)) / item.size);
      // The virtualizer's own correction, which keeps its offset and the element's in step (private in its types;
      // without it, the row's top stays still as the rule has it).
      if (above !== 0) (instance as unknown as { applyScrollAdjustment?: (delta: number) => boolean }).applyScrollAdjustment?.(above);
    }
    return false;
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
    live.rendered = split(items.map((item) => item.index));
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

  // An instance field, not an option.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = shouldAdjust;

  const rowRef = (el: HTMLElement | null) => {
    virtualizer.measureElement(el);
    if (el) position(el, 0);
  };

  // Focus in a row keeps it rendered: a keyboard user on a link in a reply who scrolls the list away (Home, Page Up)
  // keeps focus there, and Tab goes on from it, rather than from the top of the page.
  const onFocusIn = (event: FocusEvent) => {
    const row = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-index]') : null;
    const index = Number(row?.dataset.index);
    live.focused = row && Number.isInteger(index) ? { index, key: virtualizer.options.getItemKey(index) } : null;
  };
  // Focus that leaves the rows lets the row go; the window losing focus (a link opened in a new tab) does not: the
  // element keeps focus, and gets it back when the reader returns.
  const onFocusOut = (event: FocusEvent) => {
    const to = event.relatedTarget;
    const sizer = live.sizer;
    if (to instanceof Node ? sizer?.contains(to) : sizer?.contains(sizer.ownerDocument.activeElement)) return;
    live.focused = null;
  };

  const sizerRef = (el: HTMLElement | null) => {
    live.sizer?.removeEventListener('focusin', onFocusIn);
    live.sizer?.removeEventListener('focusout', onFocusOut);
    el?.addEventListener('focusin', onFocusIn);
    el?.addEventListener('focusout', onFocusOut);
    live.sizer = el;
    if (el) place();
  };

  return { virtualizer, onChange, extractRange, extractorFor, onStoreChange, committed, dispose, rowRef, sizerRef, measure };
}
