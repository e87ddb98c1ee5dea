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

/** The name of every tool call started in `entries`, by id. */
export function toolNamesOf(entries: readonly LoggedEvent[]): ToolNames {
  const names = new Map<string, string>();
  for (const { event } of entries) {
    const e = event as { type?: unknown; toolCallId?: unknown; toolCallName?: unknown } | null;
    if (e?.type === 'TOOL_CALL_START' && typeof e.toolCallId === 'string' && typeof e.toolCallName === 'string')
      names.set(e.toolCallId, e.toolCallName);
  }
  return names;
}

export interface Travel {
  entry: LoggedEvent;
  thread: ThreadState;
}

export interface TimelineContextValue {
  entries: readonly LoggedEvent[];
  toolNames: ToolNames;
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
