'use client';

import type { LoggedEvent, SharedState } from '@aguikit/core';
import { useAgentStore, useEventLog, useSharedState } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { eventType, summarizeEvent } from './eventSummary.js';
import { JsonTree } from './JsonTree.js';
import { Listbox } from './Listbox.js';
import { type LogPoint, stillValid } from './timeTravel.js';

interface PastState {
  entry: LoggedEvent;
  shared: SharedState;
}

interface InspectorContextValue {
  live: SharedState;
  /** Positions in the log of every STATE_SNAPSHOT and STATE_DELTA, ascending. */
  history: readonly number[];
  entries: readonly LoggedEvent[];
  past: PastState | undefined;
  /** Position of the picked event: ahead of `past` while its replay is pending. */
  picked: number | undefined;
  /** Shows the document after the event at `position`, or the live one. */
  view: (position: number | undefined) => void;
}

const InspectorContext = clientContext<InspectorContextValue | null>(null);

function useInspector(part: string): InspectorContextValue {
  const value = React.useContext(InspectorContext);
  if (!value) throw new Error(`StateInspector.${part} must be used within <StateInspector.Root>.`);
  return value;
}

function isStateEvent(entry: LoggedEvent): boolean {
  const type = eventType(entry.event);
  return type === 'STATE_SNAPSHOT' || type === 'STATE_DELTA';
}

/** Names a JSON Patch operation in words: `replace /refund/status`. */
function describeOperation(operation: unknown): string {
  if (typeof operation !== 'object' || operation === null) return JSON.stringify(operation) ?? String(operation);
  const { op, path, from } = operation as { op?: unknown; path?: unknown; from?: unknown };
  return `${String(op)} ${String(path)}${from === undefined ? '' : ` from ${String(from)}`}`;
}

function Root({ children, label = 'Shared state' }: { children: ReactNode; label?: string }) {
  const live = useSharedState();
  const { entries } = useEventLog();
  // The controller replays its own log: the thread after a picked event, client entries before it included.
  const store = useAgentStore();
  const history = React.useMemo(() => entries.flatMap((entry, position) => (isStateEvent(entry) ? [position] : [])), [entries]);
  const [picked, setPicked] = React.useState<LogPoint>();
  // Replaying is O(log length): deferred, so moving through the history with the keyboard never waits for it.
  const valid = stillValid(picked, entries) ? picked : undefined;
  const point = React.useDeferredValue(valid);
  const past = React.useMemo(() => {
    const entry = point?.entries[point.position];
    return point && entry ? { entry, shared: store.stateAfterEvent(point.position).sharedState } : undefined;
  }, [point, store]);
  const value = React.useMemo<InspectorContextValue>(
    () => ({
      live,
      history,
      entries,
      past,
      picked: valid?.position,
      view: (position) => setPicked(position === undefined ? undefined : { position, entries }),
    }),
    [live, history, entries, past, valid],
  );
  return (
    <InspectorContext.Provider value={value}>
      <section className="agk-inspector agk-root" aria-label={label} data-sync={live.sync} data-view={past ? 'history' : 'live'}>
        {children}
      </section>
    </InspectorContext.Provider>
  );
}

/**
 * The live state's sync, said plainly: when a delta failed, a `role="alert"`
 * banner names the failing operation, the event it came in and why it
 * failed. Nothing while the state is in sync.
 */
function SyncBanner() {
  const { live } = useInspector('SyncBanner');
  if (live.sync !== 'desynced') return null;
  return (
    <div role="alert" className="agk-inspector__banner" data-sync="desynced">
      <p className="agk-inspector__banner-title">State out of sync</p>
      <p>
        Operation <code className="agk-inspector__op">{describeOperation(live.failure?.operation)}</code>
        {live.failure ? ` of event #${live.failure.index}` : ''} failed: {live.failure?.message ?? 'no reason given'}.
      </p>
      <p>Nothing of that delta was applied, and later deltas wait for the next STATE_SNAPSHOT.</p>
    </div>
  );
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** The document being viewed (live, or after the picked history event), with the changes of its last delta marked. */
function Document() {
  const { live, past, history, view } = useInspector('Document');
  const shown = past?.shared ?? live;
  if (!past && history.length === 0 && isEmptyObject(live.document)) {
    return (
      <p className="agk-inspector__empty" data-state="empty">
        No shared state yet: the agent has sent no snapshot and no delta.
      </p>
    );
  }
  const title = past ? `After event #${past.entry.index} (${eventType(past.entry.event)})` : `Live document, version ${live.version}`;
  return (
    <div className="agk-inspector__document" data-view={past ? 'history' : 'live'}>
      <div className="agk-inspector__toolbar">
        <p className="agk-label">{title}</p>
        {past ? (
          <button type="button" className="agk-button" onClick={() => view(undefined)}>
            Back to live
          </button>
        ) : null}
      </div>
      {past?.shared.sync === 'desynced' ? (
        <p className="agk-inspector__note" data-sync="desynced">
          Desynced at this point: {describeOperation(past.shared.failure?.operation)} failed ({past.shared.failure?.message}).
        </p>
      ) : null}
      <JsonTree label={title} value={shown.document} highlight={shown.lastDelta} />
    </div>
  );
}

const LIVE = -1;

/**
 * Every STATE_SNAPSHOT and STATE_DELTA received, with its arrival index, as
 * a listbox: picking one shows the document as it was right after it.
 */
function History() {
  const { history, entries, picked, view, live } = useInspector('History');
  const items = React.useMemo(() => [LIVE, ...history], [history]);
  if (history.length === 0) return null;
  const renderItem = (position: number) => {
    const entry = entries[position];
    if (position === LIVE || !entry) {
      return (
        <>
          <span className="agk-inspector__when">Live</span>
          <span className="agk-inspector__what">version {live.version}</span>
        </>
      );
    }
    return (
      <>
        <span className="agk-inspector__when">#{entry.index}</span>
        <span className="agk-inspector__type">{eventType(entry.event)}</span>
        <span className="agk-inspector__what">{summarizeEvent(entry.event)}</span>
      </>
    );
  };
  return (
    <div className="agk-inspector__history">
      <p className="agk-label">History</p>
      <Listbox
        label="State history"
        items={items}
        selected={picked ?? LIVE}
        onSelect={(position) => view(position === LIVE ? undefined : position)}
        renderItem={renderItem}
        rowHeight={32}
      />
    </div>
  );
}

/**
 * The parts of the state inspector, to compose one of your own. `Root`
 * (a region with `data-sync` and `data-view="live" | "history"`) reads the
 * nearest `AgentProvider`; the other parts must sit inside it.
 *
 * @example
 * <StateInspector.Root label="Cart state">
 *   <StateInspector.SyncBanner />
 *   <StateInspector.Document />
 * </StateInspector.Root>
 */
export const StateInspector = { Root, SyncBanner, Document, History };

/**
 * The shared state, inspected: the document as a collapsible JSON tree with
 * the last delta's operations marked on the nodes they touched, a plain
 * alert when the state is desynced, and the history of snapshots and deltas
 * (pick one to see the document as it was after it). Reads the nearest
 * `AgentProvider`.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <StateInspectorPanel />
 * </AgentProvider>
 */
export function StateInspectorPanel({ label }: { label?: string }) {
  return (
    <Root {...(label === undefined ? {} : { label })}>
      <SyncBanner />
      <div className="agk-inspector__body">
        <Document />
        <History />
      </div>
    </Root>
  );
}
