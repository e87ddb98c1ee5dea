'use client';

/** What the parts of the event timeline share: the log, its filters, the selection and the replay of the selected point. */
import type { Diagnostic, LoggedEvent, ThreadState } from '@aguikit/core';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { type EventGroup, eventGroups, eventType, summarizeEvent } from './eventSummary.js';

export interface Row {
  type: string;
  groups: readonly EventGroup[];
  summary: string;
  /** Lowercased text the filter searches: index, type and summary (never the whole payload, which may be huge). */
  search: string;
}

// Entries are immutable and the log append-only: a row is worked out once per event, not per render or per filter.
const rows = new WeakMap<LoggedEvent, Row>();

export function rowOf(entry: LoggedEvent): Row {
  let row = rows.get(entry);
  if (!row) {
    const type = eventType(entry.event);
    const summary = summarizeEvent(entry.event);
    row = { type, groups: eventGroups(entry.event), summary, search: `#${entry.index} ${type} ${summary}`.toLowerCase() };
    rows.set(entry, row);
  }
  return row;
}

export interface Travel {
  entry: LoggedEvent;
  thread: ThreadState;
}

export interface TimelineContextValue {
  entries: readonly LoggedEvent[];
  /** Positions in the log of the rows that pass the filters, ascending. */
  visible: readonly number[];
  diagnosticsAt: ReadonlyMap<number, readonly Diagnostic[]>;
  /** Diagnostics of no event (the stream's end, or an index past the log). */
  unattached: readonly Diagnostic[];
  groups: ReadonlySet<EventGroup>;
  toggleGroup: (group: EventGroup) => void;
  query: string;
  setQuery: (query: string) => void;
  selected: number | undefined;
  select: (position: number) => void;
  travel: Travel | undefined;
}

export const TimelineContext = clientContext<TimelineContextValue | null>(null);

export function useTimeline(part: string): TimelineContextValue {
  const value = React.useContext(TimelineContext);
  if (!value) throw new Error(`EventTimeline.${part} must be used within <EventTimeline.Root>.`);
  return value;
}
