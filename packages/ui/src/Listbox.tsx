'use client';

import type { KeyboardEvent, MouseEvent, ReactNode, RefObject } from 'react';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useHydrated } from './useHydrated.js';
import { useMergedRef } from './useMergedRef.js';

/**
 * The items of a listbox in display order: an array, or a view of one that
 * reads no further than its `length` (a log's rows as they grow, without a
 * copy per change). `at` is read from 0 to `length - 1` only.
 */
export interface ListItems {
  readonly length: number;
  at(position: number): number | undefined;
}

export interface ListboxProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'onSelect' | 'children'> {
  label: string;
  /** The items in display order, ascending (arrival indices): a selection filtered out is found again by value. */
  items: ListItems;
  selected: number | undefined;
  onSelect: (item: number) => void;
  renderItem: (item: number) => ReactNode;
  /** Attributes of an item's option, for its enumerated `data-*` state. */
  itemData?: (item: number) => Record<`data-${string}`, string>;
  /**
   * What an item's row shows, as a value that changes when the row must be
   * drawn again (compared with `Object.is`). With it, a row is drawn again
   * only when its version, its selection or its place changes, not each
   * time the list renders (a new row appended, a new `renderItem`); without
   * it, every row is drawn again with each new `renderItem`.
   */
  itemVersion?: (item: number) => unknown;
  /** What every row's drawing depends on besides its own version (the language): when it changes, every row is drawn again. */
  renderKey?: unknown;
  /** Height of one row in pixels: rows are fixed-height so a long list can be virtualized without measuring. */
  rowHeight: number;
  /** Above this many items only the rows in view are rendered. */
  virtualizeAbove?: number;
  /**
   * For type-ahead: whether one of the words an item's row begins with
   * starts with `prefix` (the typed text, lowercased; compare a word with
   * `foldedStartsWith`). Typed characters move the selection to the next
   * item that answers yes. Without it, typing moves nothing.
   */
  itemStarts?: (item: number, prefix: string) => boolean;
}

/** First position whose item is >= `value` (items ascend). */
function lowerBound(items: ListItems, value: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((items.at(mid) ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const PAGE = 10;
/** How long after a typed character the next one still adds to the type-ahead search. */
const TYPE_AHEAD_MS = 500;

/** The first position from `start` on (the search goes round) whose item has a word that starts with `prefix`. */
function findFrom(prefix: string, start: number, items: ListItems, itemStarts: (item: number, prefix: string) => boolean) {
  const n = items.length;
  for (let step = 0; step < n; step++) {
    const position = (start + step) % n;
    const item = items.at(position);
    if (item !== undefined && itemStarts(item, prefix)) return position;
  }
  return undefined;
}

/**
 * Where type-ahead moves from `at` (-1: from no row). One character moves on
 * to the next row that starts with it; more may stay on the row at `at`. The
 * same character typed again and again, which no row starts with, moves on
 * to the next row that starts with it once.
 */
function typeAheadPosition(
  typed: string,
  at: number,
  items: ListItems,
  itemStarts: (item: number, prefix: string) => boolean,
): number | undefined {
  const next = (at + 1) % items.length;
  if (typed.length === 1) return findFrom(typed, next, items, itemStarts);
  const whole = findFrom(typed, Math.max(0, at), items, itemStarts);
  if (whole !== undefined) return whole;
  const first = typed[0] ?? '';
  return [...typed].every((c) => c === first) ? findFrom(first, next, items, itemStarts) : undefined;
}

/** Where a key moves the selection from `at` (the selected item's position, or where it would be when filtered out). */
function nextPosition(key: string, at: number, found: boolean, length: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return found ? at + 1 : at;
    case 'ArrowUp':
      return at - 1;
    case 'PageDown':
      return found ? at + PAGE : at + PAGE - 1;
    case 'PageUp':
      return at - PAGE;
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
    default:
      return undefined;
  }
}

/**
 * A single-select listbox that keeps focus on itself and points at the
 * selected option with `aria-activedescendant`: a virtualized option can
 * unmount when scrolled away, so it must never hold focus itself. Arrow
 * keys, Page Up/Down, Home and End move the selection (selection follows
 * focus); with `itemStarts`, typing the start of a row's word moves it
 * there (type-ahead). Options carry `data-state="selected" | "unselected"`. Internal:
 * the timeline and the state history share it.
 */
export const Listbox = React.forwardRef<HTMLDivElement, ListboxProps>(function Listbox(props, forwardedRef) {
  const {
    label,
    items,
    selected,
    onSelect,
    renderItem,
    itemData,
    itemVersion,
    renderKey,
    rowHeight: forBaseFont,
    virtualizeAbove = 300,
    itemStarts,
    className,
    ...rest
  } = props;
  const ref = React.useRef<HTMLDivElement>(null);
  // `rowHeight` is for a 16 px font: rows grow with the page's font size (an 18 px base, a user's larger text).
  // Read again whenever the list resizes: a font changed after mount (larger text) resizes its view, high in rem.
  const [fontSize, setFontSize] = React.useState(16);
  useBrowserLayoutEffect(() => {
    const el = ref.current as HTMLDivElement;
    const measure = () => setFontSize(Number.parseFloat(getComputedStyle(el).fontSize) || 16);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  const rowHeight = Math.ceil((forBaseFont * Math.max(fontSize, 16)) / 16);
  // Heights and places are set once hydrated: a server's HTML has no style attribute (a `style-src 'self'` policy refuses them).
  const hydrated = useHydrated();
  const setRef = useMergedRef(ref, forwardedRef);
  const baseId = React.useId();
  const optionId = React.useCallback((item: number) => `${baseId}-option-${item}`, [baseId]);
  const at = selected === undefined ? -1 : lowerBound(items, selected);
  const found = selected !== undefined && items.at(at) === selected;
  const virtual = items.length > virtualizeAbove;
  // With nothing chosen, focus points at a row without choosing it (choosing may change what the app shows): the
  // first row in view when the list takes focus (nothing scrolls), then wherever the keys move the choice.
  const [active, setActive] = React.useState<number | undefined>(undefined);
  const focused = React.useRef(false);
  const activeAt = selected === undefined && active !== undefined ? lowerBound(items, active) : -1;
  const activeFound = activeAt >= 0 && items.at(activeAt) === active;
  const pointedAt = found ? at : activeFound ? activeAt : -1;
  const pointed = pointedAt >= 0 ? items.at(pointedAt) : undefined;
  /** The first row wholly in view (rows are `rowHeight` tall, scrolled through as `VirtualOptions` scrolls them). */
  const firstInView = React.useCallback(
    () =>
      items.at(
        Math.max(0, Math.min(items.length - 1, Math.ceil(((ref.current?.scrollTop ?? 0) * scale(items.length * rowHeight)) / rowHeight))),
      ),
    [items, rowHeight],
  );
  const pointIfNone = React.useCallback(() => {
    if (selected === undefined && !activeFound && items.length > 0) setActive(firstInView());
  }, [selected, activeFound, items, firstInView]);
  // Rows that come, or a row filtered away, while the list has focus: it points at one again.
  React.useEffect(() => {
    if (focused.current) pointIfNone();
  }, [pointIfNone]);

  const typed = React.useRef({ text: '', at: 0 });
  const typeAhead = (event: KeyboardEvent<HTMLDivElement>): boolean => {
    if (!itemStarts || event.ctrlKey || event.metaKey || event.altKey || [...event.key].length !== 1) return false;
    const now = event.timeStamp || performance.now();
    const recent = now - typed.current.at < TYPE_AHEAD_MS ? typed.current.text : '';
    // Space adds to a search under way; alone, it chooses the row focus points at.
    if (event.key === ' ' && recent === '') return false;
    const text = recent + event.key.toLocaleLowerCase();
    typed.current = { text, at: now };
    event.preventDefault();
    const to = typeAheadPosition(text, pointedAt, items, itemStarts);
    const item = to === undefined ? undefined : items.at(to);
    if (item !== undefined && item !== selected) onSelect(item);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (items.length === 0) return;
    if (typeAhead(event)) return;
    if ((event.key === 'Enter' || event.key === ' ') && !found && activeFound && active !== undefined) {
      event.preventDefault();
      onSelect(active);
      return;
    }
    const from = found || activeFound ? pointedAt : selected === undefined ? (event.key === 'ArrowUp' ? items.length : -1) : at;
    const to = nextPosition(event.key, from, found || activeFound || selected === undefined, items.length);
    if (to === undefined) return;
    event.preventDefault();
    const item = items.at(Math.max(0, Math.min(items.length - 1, to)));
    if (item !== undefined) onSelect(item);
  };

  // One handler for every option: rows come and go as a virtual list scrolls. Focus returns to the
  // listbox, which owns the keyboard, since a clicked option may unmount.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const option = (event.target as Element).closest('[role="option"]');
    const item = Number(option?.getAttribute('data-item'));
    if (option && Number.isInteger(item)) onSelect(item);
    event.currentTarget.focus();
  };

  const shared = {
    items,
    selected,
    active: found ? undefined : pointed,
    renderItem,
    itemData,
    itemVersion,
    renderKey,
    optionId,
    rowHeight,
    hydrated,
  };
  return (
    <div
      {...rest}
      ref={setRef}
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={pointed === undefined ? undefined : optionId(pointed)}
      className={`agk-listbox${className ? ` ${className}` : ''}`}
      data-virtual={virtual ? 'true' : 'false'}
      onFocus={(event) => {
        rest.onFocus?.(event);
        if (event.target !== event.currentTarget) return;
        focused.current = true;
        pointIfNone();
      }}
      onBlur={(event) => {
        rest.onBlur?.(event);
        if (event.target === event.currentTarget) focused.current = false;
      }}
      onKeyDown={(event) => {
        rest.onKeyDown?.(event);
        if (!event.defaultPrevented) onKeyDown(event);
      }}
      onClick={(event) => {
        rest.onClick?.(event);
        if (!event.defaultPrevented) onClick(event);
      }}
    >
      {virtual ? (
        <VirtualOptions {...shared} scroller={ref} selectedAt={found ? at : -1} pointedAt={pointedAt} />
      ) : (
        <PlainOptions {...shared} selectedAt={found ? at : -1} pointedAt={pointedAt} />
      )}
    </div>
  );
});

interface OptionsProps {
  items: ListItems;
  selected: number | undefined;
  /** The row focus points at while nothing is chosen. */
  active: number | undefined;
  /** Where the chosen row is: brought into view when it changes. */
  selectedAt: number;
  /** Where the row aria-activedescendant names is (chosen or not): kept rendered. */
  pointedAt: number;
  renderItem: (item: number) => ReactNode;
  itemData: ListboxProps['itemData'];
  itemVersion: ListboxProps['itemVersion'];
  renderKey: unknown;
  optionId: (item: number) => string;
  rowHeight: number;
  /** Whether rows are given their height and place (`style`): not in a server's HTML, nor as it hydrates. */
  hydrated: boolean;
}

interface OptionProps {
  item: number;
  id: string;
  selected: boolean;
  active: boolean;
  /** 0 while not hydrated: no `style` then. */
  height: number;
  /** Where the row is (virtual rows only, 0-based), and of how many. */
  position?: number | undefined;
  size?: number | undefined;
  /** Where a virtual row is drawn. */
  top?: number | undefined;
  /** What the row shows (`itemVersion`), or the `renderItem` that draws it. */
  version: unknown;
  renderKey: unknown;
  renderItem: (item: number) => ReactNode;
  itemData: ListboxProps['itemData'];
}

/** A row is drawn again when anything it shows changed: its `renderItem` and `itemData` count only through `version`. */
const sameRow = (a: OptionProps, b: OptionProps) =>
  a.item === b.item &&
  a.id === b.id &&
  a.selected === b.selected &&
  a.active === b.active &&
  a.height === b.height &&
  a.position === b.position &&
  a.size === b.size &&
  a.top === b.top &&
  Object.is(a.version, b.version) &&
  Object.is(a.renderKey, b.renderKey);

const Option = React.memo(function Option({ item, id, selected, active, height, position, size, top, renderItem, itemData }: OptionProps) {
  const place = top === undefined ? undefined : { position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${top}px)` };
  return (
    <div
      role="option"
      id={id}
      aria-selected={selected}
      data-state={selected ? 'selected' : 'unselected'}
      {...(active ? { 'data-active': 'true' } : {})}
      tabIndex={-1}
      data-item={item}
      className="agk-listbox__option"
      style={height ? ({ height, ...place } as React.CSSProperties) : undefined}
      {...(position !== undefined ? { 'aria-posinset': position + 1, 'aria-setsize': size } : {})}
      {...itemData?.(item)}
    >
      {renderItem(item)}
    </div>
  );
}, sameRow);

/** The props of `item`'s row. */
function optionProps(props: OptionsProps, item: number): OptionProps {
  return {
    item,
    id: props.optionId(item),
    selected: item === props.selected,
    active: item === props.active,
    height: props.hydrated ? props.rowHeight : 0,
    version: props.itemVersion ? props.itemVersion(item) : props.renderItem,
    renderKey: props.renderKey,
    renderItem: props.renderItem,
    itemData: props.itemData,
  };
}

/**
 * Brings `option` into view in its list. Only while the user is in the list
 * (its keys moved the selection) may the page scroll to it too; a selection
 * that moved because new data came (the live row of a growing history) never
 * scrolls the page, which on a phone holds the devtools below the chat.
 */
function reveal(option: HTMLElement): void {
  const list = option.closest<HTMLElement>('[role="listbox"]');
  if (!list) return;
  if (list.contains(option.ownerDocument.activeElement)) {
    option.scrollIntoView?.({ block: 'nearest' });
    return;
  }
  const o = option.getBoundingClientRect();
  const l = list.getBoundingClientRect();
  if (o.top < l.top) list.scrollTop -= l.top - o.top;
  else if (o.bottom > l.bottom) list.scrollTop += Math.min(o.bottom - l.bottom, o.top - l.top);
}

/**
 * Brings the chosen row into view when it or its place changes (a virtual list renders it wherever it is scrolled).
 * `scrolled`, when it returns true, has brought it there itself.
 */
function useRevealSelected({ selected, selectedAt, optionId, hydrated }: OptionsProps, scrolled?: () => boolean): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new place (rows filtered before it) brings it back too.
  React.useEffect(() => {
    // Hydrating, rows have no height nor place yet (a server's HTML has no style): brought into view once they do.
    if (!hydrated) return;
    const option = selected === undefined ? null : document.getElementById(optionId(selected));
    if (option && !scrolled?.()) reveal(option);
  }, [selected, selectedAt, optionId, hydrated]);
}

function PlainOptions(props: OptionsProps) {
  useRevealSelected(props);
  const options: ReactNode[] = [];
  for (let position = 0; position < props.items.length; position++) {
    const item = props.items.at(position);
    if (item !== undefined) options.push(<Option key={item} {...optionProps(props, item)} />);
  }
  return options;
}

/** Rows rendered past each edge of the view, so a short scroll shows rows already drawn. */
const OVERSCAN = 8;
/** The tallest the rows' spacer gets: browsers cap an element's height (Firefox near 17.9M px, Chrome near 33.5M). */
const MAX_HEIGHT = 15e6;

/**
 * How many pixels through rows `total` pixels tall one pixel scrolled moves:
 * 1 up to MAX_HEIGHT, past it a power of two (the same as a log grows, so a
 * reader stays on the rows read).
 */
const scale = (total: number) => (total > MAX_HEIGHT ? 2 ** Math.ceil(Math.log2(total / MAX_HEIGHT)) : 1);

/**
 * The rows in view in the scroller, plus `OVERSCAN` each side, worked out
 * from the scroll position and the view's height alone (rows are
 * `rowHeight` tall): a row that arrives or a list resized costs the rows
 * shown, not a walk of every row (100,000 in a long event log). A scroll
 * renders again at once (synchronously), so the rows never lag the
 * scrollbar; a resize, in React's own time. A list not laid out (a hidden
 * tab, a test without layout) counts as 16 rows tall: it renders a first
 * screenful rather than nothing.
 */
function VirtualOptions(props: OptionsProps & { scroller: RefObject<HTMLDivElement | null> }) {
  const { items, selectedAt, pointedAt, scroller, rowHeight } = props;
  const count = items.length;
  const total = count * rowHeight;
  const [, rerender] = React.useReducer((n: number) => n + 1, 0);
  // Where the scroller is scrolled and how tall its view is. A list that turns virtual as it grows starts where its
  // reader is (its scroller is there already); a new list, at the top (its scroller comes after this render).
  const [view] = React.useState(() => ({ top: scroller.current?.scrollTop ?? 0, height: scroller.current?.clientHeight ?? 0 }));
  // Rows taller in all than MAX_HEIGHT: each pixel scrolled moves `k` pixels through them, and they are drawn `shift` higher.
  const k = scale(total);
  const range = (): [first: number, last: number, shift: number, tall: number] => {
    const height = view.height || rowHeight * 16;
    // Until the scroller reports a clamped position (the list got shorter), the offset may lie past the last row.
    const top = Math.max(0, Math.min(view.top * k, total - height));
    return [
      Math.max(0, Math.floor(top / rowHeight) - OVERSCAN),
      Math.min(count - 1, Math.ceil((top + height) / rowHeight) - 1 + OVERSCAN),
      view.top * (k - 1),
      // Scrolled to its end, the last row is at the view's bottom.
      (total - height) / k + height,
    ];
  };
  const drawn = range();
  const [first, last, shift, tall] = drawn;
  const moved = React.useRef<() => boolean>(() => false);
  moved.current = () => range().join() !== drawn.join();

  React.useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = (sync: boolean) => {
      view.top = el.scrollTop;
      view.height = el.clientHeight;
      if (!moved.current()) return;
      if (sync) ReactDOM.flushSync(rerender);
      else rerender();
    };
    const onScroll = () => update(true);
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => update(false));
    observer?.observe(el);
    update(false);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [scroller, view]);

  // Where a row is drawn moves with the scroll past MAX_HEIGHT: the scroll that shows the chosen row is worked out from
  // its place among the rows (the least change that brings it wholly into view).
  useRevealSelected(props, () => {
    const el = scroller.current as HTMLDivElement;
    const y = selectedAt * rowHeight;
    if (k > 1) el.scrollTop = Math.min(Math.max(el.scrollTop, Math.ceil((y + rowHeight - el.clientHeight) / k)), Math.floor(y / k));
    return k > 1;
  });

  const row = (index: number) => {
    const item = items.at(index);
    return item === undefined ? null : (
      <Option key={item} {...optionProps(props, item)} position={index} size={count} top={index * rowHeight - shift} />
    );
  };
  const rows: ReactNode[] = [];
  // The option aria-activedescendant names stays rendered wherever the list is scrolled, so it always names an element.
  if (pointedAt >= 0 && pointedAt < first) rows.push(row(pointedAt));
  for (let index = first; index <= last; index++) rows.push(row(index));
  if (pointedAt > last && pointedAt < count) rows.push(row(pointedAt));
  return (
    <div role="presentation" className="agk-listbox__spacer" style={props.hydrated ? { height: tall } : undefined}>
      {rows}
    </div>
  );
}
