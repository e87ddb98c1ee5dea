'use client';

/** What the parts of the event timeline share: the log, its filters, the selection and the replay of the selected point. */
import type { Diagnostic, LoggedEvent, ThreadState } from '@aguikit/core';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import {
  type EventGroup,
  type EventSummary,
  eventGroups,
  eventType,
  searchBeyondRow,
  summarizeEvent,
  summaryData,
  type ToolNames,
} from './eventSummary.js';
import type { ListItems } from './Listbox.js';

export interface Row {
  type: string;
  groups: readonly EventGroup[];
  summary: EventSummary;
  /** Lowercased text the filter searches: index, type, names, texts and full ids, each text's start and each operation's path past what the row shows (never the whole payload, which may be huge). */
  search: string;
}

// Entries are immutable and the log append-only: a row is worked out once per event, not per render or per filter.
const rows = new WeakMap<LoggedEvent, Row>();

/**
 * The row of an event. A tool call's later events are summarized with the
 * call's name from `toolNames`; a row that still lacks it (its START not yet
 * seen) is worked out again next time.
 */
export function rowOf(entry: LoggedEvent, toolNames?: ToolNames): Row {
  let row = rows.get(entry);
  if (!row) {
    const type = eventType(entry.event);
    const summary = summarizeEvent(entry.event, toolNames);
    const search = `#${entry.index} ${type} ${summaryData(summary)} ${searchBeyondRow(entry.event)}`.toLowerCase();
    row = { type, groups: eventGroups(entry.event), summary, search };
    const unnamed = type.startsWith('TOOL_CALL_') && summary.lead[0]?.kind !== 'name';
    if (!unnamed) rows.set(entry, row);
  }
  return row;
}

/** Whether the event's row is worked out for good: false while it is a tool call's event still without the call's name. */
export function rowSettled(entry: LoggedEvent): boolean {
  return rows.has(entry);
}

/** What was found of each log array's tool calls: each array is read once, as it grows. */
const namesFound = new WeakMap<readonly LoggedEvent[], { scanned: number; names: ToolNames }>();
const NO_NAMES: ToolNames = new Map();

/**
 * The name of every tool call started in the first `count` events of the
 * log's own array, by id: only the events appended since the last look are
 * read, and the same map is given back until one of them starts a call (a
 * new map then, so what depends on the names follows them).
 */
export function toolNamesUpTo(events: readonly LoggedEvent[], count: number): ToolNames {
  const before = namesFound.get(events) ?? { scanned: 0, names: NO_NAMES };
  if (before.scanned >= count) return before.names;
  let names = before.names;
  for (let i = before.scanned; i < count; i++) {
    const e = events[i]?.event as { type?: unknown; toolCallId?: unknown; toolCallName?: unknown } | null | undefined;
    if (e?.type === 'TOOL_CALL_START' && typeof e.toolCallId === 'string' && typeof e.toolCallName === 'string') {
      if (names === before.names) names = new Map(names);
      (names as Map<string, string>).set(e.toolCallId, e.toolCallName);
    }
  }
  namesFound.set(events, { scanned: count, names });
  return names;
}

/**
 * The first `length` items of `items`, an array that only grows, as the
 * listbox reads them, without a copy: a plain view (its `length` and `at`),
 * each read an array read. A new view per length, so what depends on the list
 * by identity (the listbox's own memos) follows it.
 */
export function prefixOf(items: readonly number[], length: number): ListItems {
  return { length, at: (position) => (position >= 0 && position < length ? items[position] : undefined) };
}

/** 0, 1, 2…: the positions of every event of any log, grown as a longer one is shown. */
const everyPosition: number[] = [];

/** The positions of the first `count` events, 0 to `count - 1`, in O(events added since a longer log was last shown). */
export function positionsUpTo(count: number): ListItems {
  for (let i = everyPosition.length; i < count; i++) everyPosition.push(i);
  return prefixOf(everyPosition, count);
}

export interface Travel {
  entry: LoggedEvent;
  thread: ThreadState;
}

export interface TimelineContextValue {
  /** The log's own array (a new one at a reset), appended in place: its first `count` events are this render's. */
  events: readonly LoggedEvent[];
  count: number;
  toolNames: ToolNames;
  /** Positions in the log of the rows that pass the filters, ascending. */
  visible: ListItems;
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
