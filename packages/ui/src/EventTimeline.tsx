'use client';

import type { Diagnostic } from '@aguikit/core';
import { useAgentStore, useDiagnostics, useEventLog } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { EVENT_GROUPS, type EventGroup, GROUP_LABELS } from './eventSummary.js';
import { Listbox } from './Listbox.js';
import { Detail, DiagnosticList } from './TimelineDetail.js';
import { rowOf, TimelineContext, type TimelineContextValue, useTimeline } from './timelineContext.js';
import { type LogPoint, stillValid } from './timeTravel.js';

export type { EventGroup } from './eventSummary.js';

const ALL_GROUPS: ReadonlySet<EventGroup> = new Set(EVENT_GROUPS);

function Root({ children, label = 'Event timeline' }: { children: ReactNode; label?: string }) {
  const { entries } = useEventLog();
  const diagnostics = useDiagnostics();
  // The controller replays its own log: the thread after a picked event, client entries before it included.
  const store = useAgentStore();
  const [groups, setGroups] = React.useState<ReadonlySet<EventGroup>>(ALL_GROUPS);
  const [query, setQuery] = React.useState('');
  const [picked, setPicked] = React.useState<LogPoint>();
  const search = React.useDeferredValue(query.trim().toLowerCase());

  const { diagnosticsAt, unattached } = React.useMemo(() => {
    const at = new Map<number, Diagnostic[]>();
    const none: Diagnostic[] = [];
    for (const d of diagnostics) {
      if (d.index >= 0 && d.index < entries.length) at.set(d.index, [...(at.get(d.index) ?? []), d]);
      else none.push(d);
    }
    return { diagnosticsAt: at, unattached: none };
  }, [diagnostics, entries.length]);

  const visible = React.useMemo(() => {
    const out: number[] = [];
    entries.forEach((entry, position) => {
      const row = rowOf(entry);
      if (row.groups.some((g) => groups.has(g)) && (search === '' || row.search.includes(search))) out.push(position);
    });
    return out;
  }, [entries, groups, search]);

  const valid = stillValid(picked, entries) ? picked : undefined;
  // A replay costs O(position): deferred, so holding an arrow key moves the selection at once and replays once it rests.
  const point = React.useDeferredValue(valid);
  const travel = React.useMemo(() => {
    const entry = point?.entries[point.position];
    return point && entry ? { entry, thread: store.stateAfterEvent(point.position) } : undefined;
  }, [point, store]);

  const value = React.useMemo<TimelineContextValue>(
    () => ({
      entries,
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
      select: (position) => setPicked({ position, entries }),
      travel,
    }),
    [entries, visible, diagnosticsAt, unattached, groups, query, valid, travel],
  );
  return (
    <TimelineContext.Provider value={value}>
      <section className="agk-timeline agk-root" aria-label={label} data-state={entries.length ? 'events' : 'empty'}>
        {children}
      </section>
    </TimelineContext.Provider>
  );
}

/** Checkboxes per type group and a text filter (index, type, ids, summary). */
function Filters() {
  const { groups, toggleGroup, query, setQuery, visible, entries } = useTimeline('Filters');
  const searchId = React.useId();
  return (
    <div className="agk-timeline__filters">
      <fieldset className="agk-timeline__groups">
        <legend className="agk-label">Event types</legend>
        {EVENT_GROUPS.map((group) => (
          <label key={group} className="agk-timeline__group" data-group={group}>
            <input type="checkbox" checked={groups.has(group)} onChange={() => toggleGroup(group)} />
            {GROUP_LABELS[group]}
          </label>
        ))}
      </fieldset>
      <div className="agk-timeline__search">
        <label className="agk-label" htmlFor={searchId}>
          Filter
        </label>
        <input
          id={searchId}
          type="search"
          className="agk-timeline__input"
          value={query}
          placeholder="type, id, text…"
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <p className="agk-timeline__count">
        {visible.length === entries.length
          ? `${entries.length.toLocaleString('en-US')} events`
          : `${visible.length.toLocaleString('en-US')} of ${entries.length.toLocaleString('en-US')} events`}
      </p>
    </div>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function DiagnosticBadges({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return (
    <>
      {errors ? (
        <span className="agk-badge" data-tone="danger" data-severity="error">
          {plural(errors, 'error')}
        </span>
      ) : null}
      {warnings ? (
        <span className="agk-badge" data-tone="warning" data-severity="warning">
          {plural(warnings, 'warning')}
        </span>
      ) : null}
    </>
  );
}

function severityOf(diagnostics: readonly Diagnostic[] | undefined): 'error' | 'warning' | 'none' {
  if (!diagnostics?.length) return 'none';
  return diagnostics.some((d) => d.severity === 'error') ? 'error' : 'warning';
}

/** Rows are one line each, so thousands of them can be virtualized without measuring. */
const ROW_HEIGHT = 34;

/**
 * The events that pass the filters, one row each (arrival index, type, a
 * one-line summary, diagnostic badges), as a listbox: arrow keys, Page
 * Up/Down, Home and End move the selection. Past a few hundred rows only the
 * rows in view are rendered.
 */
function List({ virtualizeAbove = 300 }: { virtualizeAbove?: number }) {
  const { entries, visible, diagnosticsAt, selected, select } = useTimeline('List');
  if (entries.length === 0) return <p className="agk-timeline__empty">No events yet.</p>;
  if (visible.length === 0) return <p className="agk-timeline__empty">No event matches the filters.</p>;
  const itemData = (position: number) => {
    const entry = entries[position];
    const row = entry ? rowOf(entry) : undefined;
    return {
      'data-group': row?.groups[0] ?? 'other',
      'data-diagnostics': entry ? severityOf(diagnosticsAt.get(entry.index)) : 'none',
    };
  };
  const renderItem = (position: number) => {
    const entry = entries[position];
    if (!entry) return null;
    const row = rowOf(entry);
    const diagnostics = diagnosticsAt.get(entry.index);
    return (
      <>
        <span className="agk-timeline__index">#{entry.index}</span>
        <span className="agk-timeline__type">{row.type}</span>
        <span className="agk-timeline__summary">{row.summary}</span>
        {diagnostics ? <DiagnosticBadges diagnostics={diagnostics} /> : null}
      </>
    );
  };
  return (
    <Listbox
      label="Events"
      className="agk-timeline__list"
      items={visible}
      selected={selected}
      onSelect={select}
      renderItem={renderItem}
      itemData={itemData}
      rowHeight={ROW_HEIGHT}
      virtualizeAbove={virtualizeAbove}
    />
  );
}

/** Diagnostics that belong to no row: the stream as a whole (a truncated run, say). Nothing when there are none. */
function StreamDiagnostics() {
  const { unattached } = useTimeline('StreamDiagnostics');
  if (unattached.length === 0) return null;
  return (
    <details className="agk-timeline__stream">
      <summary>{plural(unattached.length, 'diagnostic')} about the stream as a whole</summary>
      <DiagnosticList diagnostics={unattached} />
    </details>
  );
}

/**
 * The parts of the event timeline, to compose one of your own. `Root` reads
 * the nearest `AgentProvider`; the other parts must sit inside it. Rows carry
 * `data-group` and `data-diagnostics="error" | "warning" | "none"`.
 *
 * @example
 * <EventTimeline.Root>
 *   <EventTimeline.Filters />
 *   <EventTimeline.List virtualizeAbove={500} />
 *   <EventTimeline.Detail />
 * </EventTimeline.Root>
 */
export const EventTimeline = { Root, Filters, List, Detail, StreamDiagnostics };

/**
 * The raw event log of a thread, for debugging an agent: one row per event
 * with its index, type, a summary and its diagnostics, filtered by type
 * group and text; selecting a row shows the thread as it was after that
 * event. Long logs stay responsive (rows are virtualized). Reads the
 * nearest `AgentProvider`.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <EventTimelinePanel />
 * </AgentProvider>
 */
export function EventTimelinePanel({ label }: { label?: string }) {
  return (
    <Root {...(label === undefined ? {} : { label })}>
      <Filters />
      <StreamDiagnostics />
      <div className="agk-timeline__body">
        <List />
        <Detail />
      </div>
    </Root>
  );
}
