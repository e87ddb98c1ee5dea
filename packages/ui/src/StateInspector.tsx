'use client';

import type { LoggedEvent, SharedState } from '@aguikit/core';
import { jsonKeys } from '@aguikit/core/bindings';
import { useAgentSelector, useAgentStore, useSharedState } from '@aguikit/react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { EventSummaryView } from './EventSummaryView.js';
import { eventRowStarts, eventType, foldedStartsWith, summarizeEvent } from './eventSummary.js';
import { JsonTree } from './JsonTree.js';
import { Listbox } from './Listbox.js';
import { type AgentMessages, useLocale } from './locale.js';
import { clip } from './textCut.js';
import { type LogPoint, ownDelta, stillValid } from './timeTravel.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useFocusRescue } from './useFocusRescue.js';
import { useRestingAnnouncement } from './useRestingAnnouncement.js';
import { useStoreSwitch, useThreadKey } from './useStoreSwitch.js';

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
  /** The history list, where focus goes when the live document is shown again. */
  historyRef: React.RefObject<HTMLDivElement | null>;
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

/** How many characters of an operation's op and of each of its paths are shown: an agent's path may be megabytes long. */
const OPERATION_PART = 80;

/**
 * Names a JSON Patch operation: `replace /refund/status`, `move /a from /b` (the op and paths are protocol words), each
 * part cut to OPERATION_PART characters: the alert that names it stays a few lines, and is read out in a few seconds.
 */
function describeOperation(operation: unknown, from: (path: string) => string): string {
  const cut = (part: unknown) => clip(String(part), OPERATION_PART);
  if (typeof operation !== 'object' || operation === null) return cut(JSON.stringify(operation) ?? String(operation));
  const { op, path, from: source } = operation as { op?: unknown; path?: unknown; from?: unknown };
  return `${cut(op)} ${cut(path)}${source === undefined ? '' : ` ${from(cut(source))}`}`;
}

const cx = (own: string, className: string | undefined) => (className ? `${own} ${className}` : own);

/**
 * Props of `StateInspector.Root` and `StateInspectorPanel`: a `<section>`'s
 * props, and its accessible name.
 *
 * @example
 * const props: StateInspectorRootProps = { label: 'Cart state', className: 'my-inspector' };
 */
export interface StateInspectorRootProps extends React.HTMLAttributes<HTMLElement> {
  /** The region's accessible name; the locale's ("Shared state") by default. */
  label?: string;
}

/** What was found of each log array's state events: each array is read once, as it grows. */
const histories = new WeakMap<readonly LoggedEvent[], { scanned: number; history: readonly number[] }>();

/**
 * Where the state events are in `entries` (ascending): only the events
 * appended since the last look are read, and the same array is given back
 * while none of them is a state event, so a selector of it re-renders only
 * when one comes (a delta that leaves the document as it was included).
 */
const NO_HISTORY: readonly number[] = [];

function stateHistory(entries: readonly LoggedEvent[]): readonly number[] {
  const before = histories.get(entries) ?? { scanned: 0, history: NO_HISTORY };
  if (before.scanned === entries.length) return before.history;
  const found: number[] = [];
  for (let i = before.scanned; i < entries.length; i++) {
    const entry = entries[i];
    if (entry && isStateEvent(entry)) found.push(i);
  }
  const history = found.length ? [...before.history, ...found] : before.history;
  histories.set(entries, { scanned: entries.length, history });
  return history;
}

const Root = React.forwardRef<HTMLElement, StateInspectorRootProps>(function Root(
  { children, label, className, onFocus, onBlur, ...rest },
  ref,
) {
  useAgentStore('<StateInspector.Root>');
  // A list that held focus and goes (a new thread) hands it to the panel's first control, not to <body>.
  const rescue = useFocusRescue(ref, { onFocus, onBlur });
  const live = useSharedState();
  const { messages, format, lang } = useLocale();
  // The controller replays its own log: the thread after a picked event, client entries before it included.
  const store = useAgentStore();
  // The log's own array, appended to in place (a new one at a reset): read, not subscribed to, so the events that do
  // not touch the state (a token, a tool call's arguments) re-render nothing here.
  const entries = useAgentSelector(() => store.log.entries);
  const history = useAgentSelector(() => stateHistory(store.log.entries));
  const [picked, setPicked] = React.useState<LogPoint>();
  const historyRef = React.useRef<HTMLDivElement | null>(null);
  // Replaying is O(log length): deferred, so moving through the history with the keyboard never waits for it.
  const valid = stillValid(picked, entries) ? picked : undefined;
  const point = React.useDeferredValue(valid);
  // The deferred point may be one of another store's log for a render (the provider switched): it shows nothing here.
  const past = React.useMemo(() => {
    const entry = point?.entries[point.position];
    return point && entry && stillValid(point, entries) ? { entry, shared: store.stateAfterEvent(point.position).sharedState } : undefined;
  }, [point, store, entries]);

  // What is shown is said politely once it is shown and the pick rests: the document after a picked event, or the live one again.
  const { announcement, say, silence } = useRestingAnnouncement();
  const shownEntry = past?.entry;
  const announced = React.useRef<LoggedEvent | undefined>(undefined);
  // "Back to live" is said when the reader went back, not when a new thread or another store dropped the pick.
  const wentBack = React.useRef(false);
  const total = entries.length;
  React.useEffect(() => {
    if (announced.current === shownEntry) return;
    const before = announced.current;
    announced.current = shownEntry;
    const strings = messages.devtools.inspector;
    if (shownEntry) say(strings.showingAfter(String(shownEntry.index), format.number(total)));
    else if (before) say(wentBack.current ? strings.backToLiveDone : '');
    wentBack.current = false;
  }, [shownEntry, total, messages, format, say]);
  useStoreSwitch(
    store,
    () => {
      silence();
      announced.current = undefined;
    },
    useThreadKey(),
  );

  const value = React.useMemo<InspectorContextValue>(
    () => ({
      live,
      history,
      entries,
      past,
      picked: valid?.position,
      view: (position) => {
        wentBack.current = position === undefined;
        setPicked(position === undefined ? undefined : { position, entries });
      },
      historyRef,
    }),
    [live, history, entries, past, valid],
  );
  const view = past ? 'past' : 'live';
  return (
    <InspectorContext.Provider value={value}>
      <section
        lang={lang}
        {...rest}
        {...rescue.handlers}
        ref={rescue.ref}
        className={cx('agk-inspector agk-root', className)}
        aria-label={label ?? messages.devtools.inspector.label}
        data-sync={live.sync}
        data-state={view}
        data-view={past ? 'history' : 'live'}
      >
        {children}
        <p role="status" className="agk-visually-hidden">
          {announcement}
        </p>
      </section>
    </InspectorContext.Provider>
  );
});

/**
 * The live state's sync, said plainly: when a delta failed, a `role="alert"`
 * banner names the failing operation, the event it came in and why it
 * failed. Nothing while the state is in sync.
 */
const SyncBanner = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function SyncBanner({ className, ...rest }, ref) {
  const { live } = useInspector('SyncBanner');
  const { messages } = useLocale();
  if (live.sync !== 'desynced') return null;
  const strings = messages.devtools.inspector;
  const failure = live.failure;
  return (
    <div {...rest} ref={ref} role="alert" className={cx('agk-inspector__banner', className)} data-sync="desynced">
      <p className="agk-inspector__banner-title">{strings.desyncTitle}</p>
      <p>
        {failure ? strings.desyncFailed(String(failure.index)) : strings.desyncFailedNoEvent}{' '}
        <code className="agk-inspector__op">{describeOperation(failure?.operation, messages.devtools.json.from)}</code>
      </p>
      <p>
        {strings.desyncReason(reasonText(strings, failure))}
        {failure && knownReason(strings, failure) ? (
          <>
            {' '}
            <span className="agk-inspector__detail" lang="en">
              {engineWords(failure)}
            </span>
          </>
        ) : null}
      </p>
      <p>{strings.desyncWaits}</p>
    </div>
  );
});

type InspectorStrings = AgentMessages['devtools']['inspector'];
type Failure = NonNullable<SharedState['failure']>;

/** Whether the locale has words for the failure's code (a state from an older version may have none). */
function knownReason(strings: InspectorStrings, failure: Failure): boolean {
  return typeof failure.code === 'string' && Object.hasOwn(strings.reasons, failure.code);
}

/** Why a delta failed, in the locale's words by its code; the engine's English message where the locale has none. */
function reasonText(strings: InspectorStrings, failure: Failure | undefined): string {
  if (!failure) return strings.noReason;
  return knownReason(strings, failure) ? strings.reasons[failure.code] : engineWords(failure);
}

/** How many characters of the engine's message are shown: it may quote a path the agent sent, megabytes long. */
const ENGINE_WORDS = 300;

/** The JSON Patch engine's English message of a failure, cut to ENGINE_WORDS characters. */
function engineWords(failure: Failure): string {
  return clip(failure.message, ENGINE_WORDS);
}

function isEmptyObject(value: unknown): boolean {
  // jsonKeys: a large object's key list is kept per version, where `for...in` would list every key through its Proxy.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && jsonKeys(value).length === 0;
}

/**
 * The document being viewed (live, or after the picked history event), with
 * the changes of its last delta marked. "Back to live" moves focus to the
 * history list (or, without one, to the document's title), never to `<body>`.
 * `data-state="empty" | "live" | "past"`.
 */
const Document = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function Document({ className, ...rest }, ref) {
  const { live, past, history, view, historyRef } = useInspector('Document');
  const { messages, format } = useLocale();
  // The tree's folds are the thread's: another thread, or a reset, opens as on a fresh mount.
  const thread = useThreadKey();
  const strings = messages.devtools.inspector;
  const titleRef = React.useRef<HTMLParagraphElement>(null);
  const shown = past?.shared ?? live;
  if (!past && history.length === 0 && isEmptyObject(live.document)) {
    return (
      <div {...rest} ref={ref} className={cx('agk-inspector__empty', className)} data-state="empty">
        {strings.empty}
      </div>
    );
  }
  const title = past
    ? strings.pastTitle(String(past.entry.index), eventType(past.entry.event))
    : strings.liveTitle(format.number(live.version));
  const backToLive = () => {
    // Focus moves before the button goes: the list shows "Live" selected, and reads it.
    (historyRef.current ?? titleRef.current)?.focus();
    view(undefined);
  };
  return (
    <div
      {...rest}
      ref={ref}
      className={cx('agk-inspector__document', className)}
      data-state={past ? 'past' : 'live'}
      data-view={past ? 'history' : 'live'}
    >
      <div className="agk-inspector__toolbar">
        <p ref={titleRef} className="agk-label agk-inspector__title" tabIndex={-1}>
          {title}
        </p>
        {past ? (
          <button type="button" className="agk-button" onClick={backToLive}>
            {strings.backToLive}
          </button>
        ) : null}
      </div>
      {past?.shared.sync === 'desynced' ? (
        <p className="agk-inspector__note" data-sync="desynced">
          {strings.desyncedAt(
            describeOperation(past.shared.failure?.operation, messages.devtools.json.from),
            reasonText(strings, past.shared.failure),
          )}
        </p>
      ) : null}
      <JsonTree
        key={thread}
        label={title}
        value={shown.document}
        highlight={past ? ownDelta(past.entry, past.shared.lastDelta) : shown.lastDelta}
      />
    </div>
  );
});

const LIVE = -1;

/**
 * Every STATE_SNAPSHOT and STATE_DELTA received, with its arrival index and
 * what it changed (the operations, the size of a snapshot), as a listbox:
 * picking one shows the document as it was right after it.
 */
const History = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function History({ className, ...rest }, ref) {
  const { history, entries, picked, view, live, historyRef, past } = useInspector('History');
  const { messages, format } = useLocale();
  const strings = messages.devtools.inspector;
  const items = React.useMemo(() => [LIVE, ...history], [history]);
  // The document is drawn after a pick (deferred), and where it sits above the history (one column) it may grow or
  // shrink by thousands of pixels once it is: the row the reader's keys moved to is brought back into view then.
  useBrowserLayoutEffect(() => {
    const list = historyRef.current;
    const doc = list?.ownerDocument;
    if (!list || !doc || !list.contains(doc.activeElement)) return;
    const id = list.getAttribute('aria-activedescendant');
    (id ? doc.getElementById(id) : list.querySelector<HTMLElement>('[aria-selected="true"]'))?.scrollIntoView?.({ block: 'nearest' });
  }, [past, historyRef]);
  if (history.length === 0) return null;
  const renderItem = (position: number) => {
    const entry = entries[position];
    if (position === LIVE || !entry) {
      return (
        <>
          <span className="agk-inspector__head">
            <span className="agk-inspector__when">{strings.live}</span>
          </span>
          <span className="agk-inspector__what">{strings.version(format.number(live.version))}</span>
        </>
      );
    }
    return (
      <>
        <span className="agk-inspector__head">
          <span className="agk-inspector__when">#{entry.index}</span>
          <span className="agk-inspector__type">{eventType(entry.event)}</span>
        </span>
        <EventSummaryView className="agk-inspector__what" summary={summarizeEvent(entry.event)} />
      </>
    );
  };
  return (
    <div {...rest} ref={ref} className={cx('agk-inspector__history', className)}>
      <p className="agk-label">{strings.history}</p>
      <Listbox
        ref={historyRef}
        label={strings.historyLabel}
        items={items}
        selected={picked ?? LIVE}
        onSelect={(position) => view(position === LIVE ? undefined : position)}
        renderItem={renderItem}
        // A row is drawn again when what it shows changes: the live row with each version, an event's never.
        itemVersion={(position) => (position === LIVE ? live.version : entries[position])}
        // Type-ahead: "Live", or an event's index and type.
        itemStarts={(position, prefix) => {
          const entry = entries[position];
          return position === LIVE || !entry ? foldedStartsWith(strings.live, prefix) : eventRowStarts(entry, prefix);
        }}
        renderKey={messages}
        rowHeight={52}
      />
    </div>
  );
});

/**
 * The parts of the state inspector, to compose one of your own. `Root`
 * (a region with `data-sync` and `data-state="live" | "past"`) reads the
 * nearest `AgentProvider`; the other parts must sit inside it. Every part
 * forwards its ref and passes `className`, `style` and DOM props.
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
 * (pick one to see the document as it was after it; the change is
 * announced politely). Reads the nearest `AgentProvider`; its strings come
 * from the locale.
 *
 * @example
 * <AgentProvider store={agent.store}>
 *   <StateInspectorPanel />
 * </AgentProvider>
 */
export const StateInspectorPanel = React.forwardRef<HTMLElement, StateInspectorRootProps>(function StateInspectorPanel(props, ref) {
  useAgentStore('<StateInspectorPanel>');
  return (
    <Root {...props} ref={ref}>
      <SyncBanner />
      <div className="agk-inspector__body">
        <Document />
        <History />
      </div>
    </Root>
  );
});
