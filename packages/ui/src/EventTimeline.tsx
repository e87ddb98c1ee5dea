'use client';

import type { Diagnostic, LoggedEvent } from '@aguikit/core';
import { useAgentStore, useDiagnostics, useEventLog } from '@aguikit/react';
import * as React from 'react';
import { EventSummaryView } from './EventSummaryView.js';
import { EVENT_GROUPS, type EventGroup, eventRowStarts } from './eventSummary.js';
import { Listbox } from './Listbox.js';
import { useLocale } from './locale.js';
import { Detail, DiagnosticList } from './TimelineDetail.js';
import {
  positionsUpTo,
  prefixOf,
  rowOf,
  rowSettled,
  TimelineContext,
  type TimelineContextValue,
  toolNamesUpTo,
  useTimeline,
} from './timelineContext.js';
import { type LogPoint, stillValid } from './timeTravel.js';
import { useFocusRescue } from './useFocusRescue.js';
import { useHydrated } from './useHydrated.js';
import { useRestingAnnouncement } from './useRestingAnnouncement.js';
import { useStoreSwitch, useThreadKey } from './useStoreSwitch.js';

export type { EventGroup } from './eventSummary.js';
export type { DetailProps as EventTimelineDetailProps } from './TimelineDetail.js';

const ALL_GROUPS: ReadonlySet<EventGroup> = new Set(EVENT_GROUPS);

/** The rows a search and the type groups passed among the first `scanned` events of a log's array. */
interface Filtered {
  events: readonly LoggedEvent[];
  toolNames: TimelineContextValue['toolNames'];
  groups: ReadonlySet<EventGroup>;
  search: string;
  scanned: number;
  found: number[];
  /** Positions among them whose rows still wait for a tool call's name, and whether each passed: a new name can change only these. */
  unnamed: Map<number, boolean>;
}

const cx = (own: string, className: string | undefined) => (className ? `${own} ${className}` : own);

/**
 * Props of `EventTimeline.Root` and `EventTimelinePanel`: a `<section>`'s
 * props, and its accessible name.
 *
 * @example
 * const props: EventTimelineRootProps = { label: 'Agent events', className: 'my-timeline' };
 */
export interface EventTimelineRootProps extends React.HTMLAttributes<HTMLElement> {
  /** The region's accessible name; the locale's ("Event timeline") by default. */
  label?: string;
}

const Root = React.forwardRef<HTMLElement, EventTimelineRootProps>(function Root(
  { children, label, className, onFocus, onBlur, ...rest },
  ref,
) {
  useAgentStore('<EventTimeline.Root>');
  // A list that held focus and goes (a new thread) hands it to the panel's first control, not to <body>.
  const rescue = useFocusRescue(ref, { onFocus, onBlur });
  // The log's own array and how many of its events this render shows: a flush costs what it adds, not a copy of the log.
  const { events, count } = useEventLog();
  const diagnostics = useDiagnostics();
  const { messages, format, lang } = useLocale();
  // The controller replays its own log: the thread after a picked event, client entries before it included.
  const store = useAgentStore();
  const [groups, setGroups] = React.useState<ReadonlySet<EventGroup>>(ALL_GROUPS);
  const [query, setQuery] = React.useState('');
  const [picked, setPicked] = React.useState<LogPoint>();
  const search = React.useDeferredValue(query.trim().toLowerCase());
  const toolNames = toolNamesUpTo(events, count);

  // An event's list stays the same array while it holds the same diagnostics: its row is then not drawn again.
  const lists = React.useRef(new Map<number, readonly Diagnostic[]>());
  const { diagnosticsAt, unattached } = React.useMemo(() => {
    const at = new Map<number, Diagnostic[]>();
    const none: Diagnostic[] = [];
    for (const d of diagnostics) {
      if (d.index >= 0 && d.index < count) at.set(d.index, [...(at.get(d.index) ?? []), d]);
      else none.push(d);
    }
    const kept = new Map<number, readonly Diagnostic[]>();
    for (const [index, list] of at) {
      const before = lists.current.get(index);
      kept.set(index, before?.length === list.length && before.every((d, i) => d === list[i]) ? before : list);
    }
    lists.current = kept;
    return { diagnosticsAt: kept as ReadonlyMap<number, readonly Diagnostic[]>, unattached: none };
  }, [diagnostics, count]);

  // The rows the filters passed so far: a flush reads the events it added; new filters or a new log read the log again.
  // A new tool's name reads again the rows still without one (a call's events that came before its start): a row's
  // search text may hold the name, and every other row is worked out for good.
  const filtered = React.useRef<Filtered>(undefined);
  const visible = React.useMemo(() => {
    // Every event is of at least one kind: with every kind shown and no search, every row is, and none is worked out
    // ahead of being drawn (a long recording's rows cost their summaries and search text only once they are filtered).
    if (search === '' && EVENT_GROUPS.every((g) => groups.has(g))) return positionsUpTo(count);
    const passes = (entry: LoggedEvent) => {
      const row = rowOf(entry, toolNames);
      return row.groups.some((g) => groups.has(g)) && (search === '' || row.search.includes(search));
    };
    let f = filtered.current;
    if (f && f.toolNames !== toolNames && f.events === events && f.groups === groups && f.search === search && f.scanned <= count) {
      // Named now, a row that passed may not, or one that did not may: the list is then made again from the start.
      const unnamed = new Map<number, boolean>();
      for (const [position, passed] of f.unnamed) {
        const entry = events[position] as LoggedEvent;
        if (passes(entry) !== passed) {
          f = undefined;
          break;
        }
        if (!rowSettled(entry)) unnamed.set(position, passed);
      }
      if (f) {
        f.toolNames = toolNames;
        f.unnamed = unnamed;
      }
    }
    if (!f || f.events !== events || f.toolNames !== toolNames || f.groups !== groups || f.search !== search || f.scanned > count) {
      f = { events, toolNames, groups, search, scanned: 0, found: [], unnamed: new Map() };
      filtered.current = f;
    }
    for (let position = f.scanned; position < count; position++) {
      const entry = events[position];
      if (!entry) continue;
      const passed = passes(entry);
      if (passed) f.found.push(position);
      if (!rowSettled(entry)) f.unnamed.set(position, passed);
    }
    f.scanned = count;
    return prefixOf(f.found, f.found.length);
  }, [events, count, groups, search, toolNames]);

  const valid = stillValid(picked, events, count) ? picked : undefined;
  // A replay costs O(position): deferred, so holding an arrow key moves the selection at once and replays once it rests.
  const point = React.useDeferredValue(valid);
  // The deferred point may be one of another store's log for a render (the provider switched): it shows nothing here.
  // Replayed once per pick, not at each flush that follows it (the count grows past the point, which stays valid).
  const shown = stillValid(point, events, count) ? point : undefined;
  const travel = React.useMemo(() => {
    const entry = shown?.entries[shown.position];
    return shown && entry ? { entry, thread: store.stateAfterEvent(shown.position) } : undefined;
  }, [shown, store]);

  // Time travel is said politely once its replay is shown and the pick rests: the row's own name says which row, this
  // what is shown. What the filters leave is said the same way, once the reader stops typing or ticking.
  const { announcement, say, silence } = useRestingAnnouncement();
  const total = count;
  const travelled = travel?.entry;
  const announced = React.useRef<LoggedEvent | undefined>(undefined);
  React.useEffect(() => {
    // The total grows while a run streams: only a new pick is announced.
    if (!travelled || announced.current === travelled) return;
    announced.current = travelled;
    say(messages.devtools.timeline.showingAfter(String(travelled.index), format.number(total)));
  }, [travelled, total, messages, format, say]);
  const counted = React.useRef({ visible: visible.length, total });
  counted.current = { visible: visible.length, total };
  const filtering = React.useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of the filters is what is said; the counts come from a ref.
  React.useEffect(() => {
    // The filters as the panel opened are no news: only a change of them is.
    if (!filtering.current) {
      filtering.current = true;
      return;
    }
    const { visible: shown, total: all } = counted.current;
    const strings = messages.devtools.timeline;
    say(shown === all ? strings.count(all, format.number(all)) : strings.countFiltered(format.number(shown), format.number(all)));
  }, [search, groups, messages, format, say]);
  // What was said of a thread goes with it: another store shown, or a new thread (an emptied log).
  useStoreSwitch(store, silence, useThreadKey());
  React.useEffect(() => {
    if (total === 0) silence();
  }, [total, silence]);

  const value = React.useMemo<TimelineContextValue>(
    () => ({
      events,
      count,
      toolNames,
      visible,
      diagnosticsAt,
      unattached,
      groups,
      toggleGroup: (group) =>
        setGroups((current) => {
          const next = new Set(current);
          if (!next.delete(group)) next.add(group);
          return next;
        }),
      query,
      setQuery,
      selected: valid?.position,
      select: (position) => setPicked({ position, entries: events }),
      travel,
    }),
    [events, count, toolNames, visible, diagnosticsAt, unattached, groups, query, valid, travel],
  );
  return (
    <TimelineContext.Provider value={value}>
      <section
        lang={lang}
        {...rest}
        {...rescue.handlers}
        ref={rescue.ref}
        className={cx('agk-timeline agk-root', className)}
        aria-label={label ?? messages.devtools.timeline.label}
        data-state={count ? 'events' : 'empty'}
      >
        {children}
        <p role="status" className="agk-visually-hidden">
          {announcement}
        </p>
      </section>
    </TimelineContext.Provider>
  );
});

/** Checkboxes per type group and a text filter (index, type, ids, names and texts). */
const Filters = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function Filters({ className, ...rest }, ref) {
  const { groups, toggleGroup, query, setQuery, visible, count } = useTimeline('Filters');
  const { messages, format } = useLocale();
  const strings = messages.devtools.timeline;
  const searchId = React.useId();
  return (
    <div {...rest} ref={ref} className={cx('agk-timeline__filters', className)}>
      <fieldset className="agk-timeline__groups">
        <legend className="agk-label">{strings.groupsLegend}</legend>
        {EVENT_GROUPS.map((group) => (
          <label key={group} className="agk-timeline__group" data-group={group}>
            <input type="checkbox" checked={groups.has(group)} onChange={() => toggleGroup(group)} />
            {strings.groups[group]}
          </label>
        ))}
      </fieldset>
      <div className="agk-timeline__search">
        <label className="agk-label" htmlFor={searchId}>
          {strings.filter}
        </label>
        <input
          id={searchId}
          type="search"
          className="agk-timeline__input"
          value={query}
          placeholder={strings.filterPlaceholder}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <p className="agk-timeline__count">
        {visible.length === count
          ? strings.count(count, format.number(count))
          : strings.countFiltered(format.number(visible.length), format.number(count))}
      </p>
    </div>
  );
});

function DiagnosticBadges({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  const { messages, format } = useLocale();
  const strings = messages.devtools.timeline;
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return (
    <span className="agk-timeline__badges">
      {errors ? (
        <span className="agk-badge" data-tone="danger" data-severity="error">
          {strings.errors(errors, format.number(errors))}
        </span>
      ) : null}
      {warnings ? (
        <span className="agk-badge" data-tone="warning" data-severity="warning">
          {strings.warnings(warnings, format.number(warnings))}
        </span>
      ) : null}
    </span>
  );
}

function severityOf(diagnostics: readonly Diagnostic[] | undefined): 'error' | 'warning' | 'none' {
  if (!diagnostics?.length) return 'none';
  return diagnostics.some((d) => d.severity === 'error') ? 'error' : 'warning';
}

/** Rows are two lines each (index and type, then what changed), fixed-height so thousands can be virtualized without measuring. */
const ROW_HEIGHT = 52;

/**
 * Props of `EventTimeline.List`: a `<div>`'s props, and when to virtualize.
 *
 * @example
 * <EventTimeline.List virtualizeAbove={500} className="my-list" />
 */
export interface EventTimelineListProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'onSelect'> {
  /** Above this many rows only the rows in view are rendered. Default 300. */
  virtualizeAbove?: number;
}

/**
 * The events that pass the filters, one row each (arrival index, type and
 * diagnostic badges, then what the event changed: the delta text, the tool
 * and its arguments, the operations; ids shortened, whole on hover), as a
 * listbox: arrow keys, Page Up/Down, Home and End move the selection. Past
 * a few hundred rows only the rows in view are rendered.
 */
const List = React.forwardRef<HTMLDivElement, EventTimelineListProps>(function List(
  { virtualizeAbove = 300, className, style, ...rest },
  ref,
) {
  const { events, count, visible, diagnosticsAt, selected, select, toolNames } = useTimeline('List');
  const { messages } = useLocale();
  const strings = messages.devtools.timeline;
  const hydrated = useHydrated();
  // A row is drawn again only when what it shows changes (its event, its tool's name, its diagnostics), not at every
  // event that arrives after it.
  const versions = React.useMemo(() => new WeakMap<object, { diagnostics: readonly Diagnostic[]; version: object }>(), []);
  if (count === 0 || visible.length === 0) {
    return (
      <div {...rest} ref={ref} className={cx('agk-timeline__empty', className)} data-state={count ? 'filtered' : 'empty'}>
        {count === 0 ? strings.noEvents : strings.noMatch}
      </div>
    );
  }
  const itemData = (position: number) => {
    const entry = position < count ? events[position] : undefined;
    const row = entry ? rowOf(entry, toolNames) : undefined;
    return {
      'data-group': row?.groups[0] ?? 'other',
      'data-diagnostics': entry ? severityOf(diagnosticsAt.get(entry.index)) : 'none',
    };
  };
  const itemVersion = (position: number) => {
    const entry = position < count ? events[position] : undefined;
    if (!entry) return undefined;
    const row = rowOf(entry, toolNames);
    const diagnostics = diagnosticsAt.get(entry.index);
    if (!diagnostics) return row;
    const known = versions.get(row);
    if (known?.diagnostics === diagnostics) return known.version;
    const version = {};
    versions.set(row, { diagnostics, version });
    return version;
  };
  // Type-ahead: a row begins with its index and its type (read from the event: no summary is worked out for it).
  const itemStarts = (position: number, prefix: string) => {
    const entry = position < count ? events[position] : undefined;
    return entry !== undefined && eventRowStarts(entry, prefix);
  };
  const renderItem = (position: number) => {
    const entry = position < count ? events[position] : undefined;
    if (!entry) return null;
    const row = rowOf(entry, toolNames);
    const diagnostics = diagnosticsAt.get(entry.index);
    return (
      <>
        <span className="agk-timeline__head">
          <span className="agk-timeline__index">#{entry.index}</span>
          <span className="agk-timeline__type">{row.type}</span>
          {diagnostics ? <DiagnosticBadges diagnostics={diagnostics} /> : null}
        </span>
        <EventSummaryView className="agk-timeline__summary" summary={row.summary} />
      </>
    );
  };
  // Every row's index column is as wide as the log's longest index: the types start at one line past #999 and #1000.
  const longest = `#${events[count - 1]?.index ?? count - 1}`.length;
  return (
    <Listbox
      {...rest}
      // Set once hydrated: a server's HTML has no style attribute (inspector.css has the width without it).
      style={hydrated ? ({ '--agk-timeline-index-chars': longest, ...style } as React.CSSProperties) : style}
      ref={ref}
      label={strings.listLabel}
      className={cx('agk-timeline__list', className)}
      items={visible}
      selected={selected}
      onSelect={select}
      renderItem={renderItem}
      itemData={itemData}
      itemVersion={itemVersion}
      itemStarts={itemStarts}
      renderKey={messages}
      rowHeight={ROW_HEIGHT}
      virtualizeAbove={virtualizeAbove}
    />
  );
});

/** Diagnostics that belong to no row: the stream as a whole (a truncated run, say). Nothing when there are none. */
const StreamDiagnostics = React.forwardRef<HTMLDetailsElement, React.HTMLAttributes<HTMLDetailsElement>>(function StreamDiagnostics(
  { className, ...rest },
  ref,
) {
  const { unattached } = useTimeline('StreamDiagnostics');
  const { messages, format } = useLocale();
  if (unattached.length === 0) return null;
  return (
    <details {...rest} ref={ref} className={cx('agk-timeline__stream', className)}>
      <summary>{messages.devtools.timeline.streamDiagnostics(unattached.length, format.number(unattached.length))}</summary>
      <DiagnosticList diagnostics={unattached} />
    </details>
  );
});

/**
 * The parts of the event timeline, to compose one of your own. `Root` reads
 * the nearest `AgentProvider`; the other parts must sit inside it. Every
 * part forwards its ref and passes `className`, `style` and DOM props. Rows
 * carry `data-group`, `data-diagnostics="error" | "warning" | "none"` and
 * `data-state="selected" | "unselected"`.
 *
 * @example
 * <EventTimeline.Root>
 *   <EventTimeline.Filters />
 *   <EventTimeline.List virtualizeAbove={500} />
 *   <EventTimeline.Detail headingLevel={3} />
 * </EventTimeline.Root>
 */
export const EventTimeline = { Root, Filters, List, Detail, StreamDiagnostics };

/**
 * The raw event log of a thread, for debugging an agent: one row per event
 * with its index, type, what it changed and its diagnostics, filtered by
 * type group and text; selecting a row shows the thread as it was after
 * that event (announced politely). Long logs stay responsive (rows are
 * virtualized). Reads the nearest `AgentProvider`; its strings come from
 * the locale.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <EventTimelinePanel />
 * </AgentProvider>
 */
export const EventTimelinePanel = React.forwardRef<HTMLElement, EventTimelineRootProps>(function EventTimelinePanel(props, ref) {
  useAgentStore('<EventTimelinePanel>');
  return (
    <Root {...props} ref={ref}>
      <Filters />
      <StreamDiagnostics />
      <div className="agk-timeline__body">
        <List />
        <Detail />
      </div>
    </Root>
  );
});
