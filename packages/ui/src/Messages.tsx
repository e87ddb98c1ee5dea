'use client';

import type { InterruptAnswer, ThreadState } from '@aguikit/core';
import { type AgentStore, useAgentSelector, useAgentStore, useRunStatus } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { AnnouncerContext, useLiveAnnouncer } from './liveAnnouncer.js';
import { type AgentMessages, useLocale } from './locale.js';
import { MarkdownHeadingLevel } from './Markdown.js';
import { Message } from './Message.js';
import { OutlineRow } from './SubagentGroup.js';
import type { RenderTool } from './ToolCall.js';
import { useAutoScroll } from './useAutoScroll.js';
import { useListVirtualizer } from './useListVirtualizer.js';
import { type OutlineItem, type SubagentLayout, ThreadViewContext, useMessageOutline } from './useMessageOutline.js';

/** When `MessageList` virtualizes, and how it estimates rows it has not measured yet. */
export interface VirtualizationOptions {
  /** Rows (top-level messages and subagent groups) above which only the visible ones are rendered. Default 200. */
  above?: number;
  /** Height of a row before it is measured, in px. Default 96. */
  estimateSize?: number;
  /** Rows rendered beyond the visible ones, on each side. Default 6. */
  overscan?: number;
  /** The viewport's size until it can be measured (server rendering, a test without layout). */
  initialRect?: { width: number; height: number };
}

/** Props of `MessageList`: how tool calls, messages and subagents are drawn, and when to virtualize. */
export interface MessageListProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Replaces the card of a tool call (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool;
  /** Draws one message, in place of `<Message id={id} renderTool={renderTool} />`; keep it stable too. */
  renderMessage?: (id: string) => ReactNode;
  /** `grouped` (default): a subagent's messages sit in its `SubagentGroup`, nested by parent. `inline`: in thread order. */
  subagents?: SubagentLayout;
  virtualization?: VirtualizationOptions;
  /** Shown while the thread has no messages. */
  empty?: ReactNode;
  /** The accessible name of the log. Default "Conversation" (from the locale). */
  label?: string;
  /**
   * The level of a reply's top heading (its `#`). Default: one below the
   * heading above the list in the page (h2 when there is none), so the
   * page's outline never jumps a level.
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/** Space above the first row, in px (the viewport has no vertical padding: the virtualizer owns that axis). */
const ROW_PADDING_START = 12;

/** A row of the list: a message, a subagent's group, or the line an answered interrupt leaves. */
type Row = OutlineItem | { kind: 'decision'; id: string };

const keyOf = (item: Row | undefined, index: number) => (item ? `${item.kind}:${item.id}` : index);

const cx = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

/** What an answered interrupt decided, as the transcript says it. */
interface Decision {
  interruptId: string;
  kind: 'approved' | 'rejected' | 'answered' | 'cancelled';
  /** The tool the interrupt held, or its message. */
  subject?: string;
  comment?: string;
  /** A non-approval answer, in words. */
  summary?: string;
  /** When it was sent (the session log's clock), if known. */
  at?: number;
  /** The run that asked (its messages come before the line), and the run the answer started. */
  askedIn?: string;
  answeredIn: string;
}

type RawInterrupt = { id?: unknown; message?: unknown; toolCallId?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const PROSE = ['comment', 'comments', 'reason', 'note', 'notes', 'feedback', 'message', 'explanation'];
const SUBJECT_LENGTH = 80;
const SUMMARY_LENGTH = 160;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** An answer's payload in words: `key: value` pairs, booleans as yes/no, nested values shortened. */
function answerSummary(payload: unknown, strings: AgentMessages['messages']['decision']): string {
  const word = (value: unknown): string => {
    if (typeof value === 'boolean') return value ? strings.yes : strings.no;
    if (Array.isArray(value)) return value.map(word).join(', ');
    if (isRecord(value)) return '{…}';
    return String(value);
  };
  if (payload === undefined || payload === null || payload === '') return '';
  const text = isRecord(payload)
    ? Object.entries(payload)
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => `${k}: ${word(v)}`)
        .join(', ')
    : word(payload);
  return clip(text, SUMMARY_LENGTH);
}

/**
 * What each answer decided, with the interrupt it answered: the interrupt's
 * data comes from the run outcome that raised it (in the store's session log),
 * the tool from the call it held, the time from the resume entry that sent it.
 */
function readDecisions(store: AgentStore, answers: readonly InterruptAnswer[], strings: AgentMessages['messages']['decision']): Decision[] {
  if (answers.length === 0) return [];
  const thread = store.getState().thread;
  const raised = new Map<string, { interrupt: RawInterrupt; runId?: string }>();
  const sentAt = new Map<string, number>();
  for (const entry of store.session.entries) {
    if (entry.type === 'resume') {
      for (const r of entry.resume) if (!sentAt.has(r.interruptId)) sentAt.set(r.interruptId, entry.at);
    } else if (entry.type === 'event' && isRecord(entry.event) && entry.event.type === 'RUN_FINISHED') {
      const { outcome, runId } = entry.event;
      if (!isRecord(outcome) || outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) continue;
      outcome.interrupts.forEach((it: unknown, i) => {
        if (!isRecord(it)) return;
        const id = typeof it.id === 'string' && it.id !== '' ? it.id : `${String(runId)}-interrupt-${i}`;
        raised.set(id, { interrupt: it, ...(typeof runId === 'string' ? { runId } : {}) });
      });
    }
  }
  const heldCalls = new Map<string, { name: string; runId?: string }>();
  for (const call of thread.toolCalls) {
    if (call.answer) heldCalls.set(call.answer.interruptId, { name: call.name, ...(call.runId ? { runId: call.runId } : {}) });
  }
  return answers.map((answer) => {
    const found = raised.get(answer.interruptId);
    const toolCallId = found && typeof found.interrupt.toolCallId === 'string' ? found.interrupt.toolCallId : undefined;
    const byInterrupt = toolCallId ? thread.toolCalls.get(toolCallId) : undefined;
    const held = heldCalls.get(answer.interruptId) ?? (byInterrupt ? { name: byInterrupt.name, runId: byInterrupt.runId } : undefined);
    const message = found && typeof found.interrupt.message === 'string' ? found.interrupt.message : undefined;
    const subject = held?.name || (message ? clip(message, SUBJECT_LENGTH) : undefined);
    const askedIn = found?.runId ?? held?.runId;
    const at = sentAt.get(answer.interruptId) ?? thread.runs[answer.runId]?.startedAt;
    const base = {
      interruptId: answer.interruptId,
      answeredIn: answer.runId,
      ...(subject ? { subject } : {}),
      ...(askedIn ? { askedIn } : {}),
      ...(at !== undefined ? { at } : {}),
    };
    if (answer.status === 'cancelled') return { ...base, kind: 'cancelled' };
    const payload = answer.payload;
    if (isRecord(payload) && typeof payload.approved === 'boolean') {
      const comment = PROSE.map((key) => payload[key]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
      return { ...base, kind: payload.approved ? 'approved' : 'rejected', ...(comment ? { comment: clip(comment, SUMMARY_LENGTH) } : {}) };
    }
    const summary = answerSummary(payload, strings);
    return { ...base, kind: 'answered', ...(summary ? { summary } : {}) };
  });
}

/** The rows with each decision after the last row of the run that asked (or before the first of the run it started). */
function placeDecisions(rows: readonly OutlineItem[], decisions: readonly Decision[], thread: ThreadState): readonly Row[] {
  if (decisions.length === 0) return rows;
  const lastOf = new Map<string, number>();
  const firstOf = new Map<string, number>();
  rows.forEach((row, i) => {
    const runId = row.kind === 'message' ? thread.messages.byId.get(row.id)?.runId : undefined;
    if (runId === undefined) return;
    lastOf.set(runId, i);
    if (!firstOf.has(runId)) firstOf.set(runId, i);
  });
  const after = new Map<number, Decision[]>();
  for (const decision of decisions) {
    const asked = decision.askedIn === undefined ? undefined : lastOf.get(decision.askedIn);
    const started = firstOf.get(decision.answeredIn);
    const at = asked ?? (started !== undefined ? started - 1 : rows.length - 1);
    after.set(at, [...(after.get(at) ?? []), decision]);
  }
  const out: Row[] = [...(after.get(-1) ?? []).map((d) => ({ kind: 'decision' as const, id: d.interruptId }))];
  rows.forEach((row, i) => {
    out.push(row);
    for (const d of after.get(i) ?? []) out.push({ kind: 'decision', id: d.interruptId });
  });
  return out;
}

const DecisionsContext = clientContext<ReadonlyMap<string, Decision>>(new Map());

/**
 * The line an answered interrupt leaves in the transcript, after the
 * messages of the run that asked: what was decided ("You approved
 * refund_order", "You rejected refund_order, comment: “…”", "You answered:
 * …", "Cancelled: …") and when, through the locale's `format.time`. It takes
 * focus after a decision (`tabIndex={-1}`), found by
 * `[data-agk-decision="<interruptId>"]`.
 */
function DecisionLine({ id }: { id: string }) {
  const decision = React.useContext(DecisionsContext).get(id);
  const { messages, format } = useLocale();
  if (!decision) return null;
  const d = messages.messages.decision;
  const { subject } = decision;
  const main =
    decision.kind === 'approved'
      ? subject
        ? d.approved(subject)
        : d.approvedPlain
      : decision.kind === 'rejected'
        ? subject
          ? d.rejected(subject)
          : d.rejectedPlain
        : decision.kind === 'cancelled'
          ? subject
            ? d.cancelled(subject)
            : d.cancelledPlain
          : decision.summary
            ? d.answered(decision.summary)
            : d.answeredPlain;
  return (
    <p className="agk-decision agk-root" data-agk-decision={id} data-status={decision.kind} tabIndex={-1}>
      <span className="agk-decision__icon" aria-hidden="true" />
      {main}
      {decision.comment ? d.comment(decision.comment) : null}
      {decision.at !== undefined ? (
        <>
          {' · '}
          <time dateTime={new Date(decision.at).toISOString()}>{format.time(decision.at)}</time>
        </>
      ) : null}
    </p>
  );
}

/** Draws one row of the list. */
function ListRow({ item }: { item: Row }) {
  return item.kind === 'decision' ? <DecisionLine id={item.id} /> : <OutlineRow item={item} />;
}

/** The level of the last heading before `el` in the document (not inside it), if any. */
function headingLevelAbove(el: HTMLElement): number | undefined {
  let level: number | undefined;
  for (const h of el.ownerDocument.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"][aria-level]')) {
    if (el.contains(h)) continue;
    if (!(el.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_PRECEDING)) break;
    const n = h.getAttribute('role') === 'heading' ? Number(h.getAttribute('aria-level')) : Number(h.tagName.slice(1));
    if (n >= 1 && n <= 6) level = n;
  }
  return level;
}

/**
 * The conversation: one row per message, read through `useMessageIds`, so a
 * streaming token re-renders only its own `Message`, never the list.
 *
 * - Subagents: by default a subagent's messages are grouped in its
 *   `SubagentGroup` (placed at its first message, nested by parent);
 *   `subagents="inline"` keeps every message in thread order.
 * - Scrolling: follows new content while the reader is at the end, stops as
 *   soon as they scroll up and shows "Jump to latest"; back at the end, it
 *   follows again (`data-scroll="following|paused"`).
 * - Long threads: above `virtualization.above` rows (200) only the visible
 *   rows are in the DOM, measured as they render
 *   (`data-virtualization="on|off"`); a subagent group is one row.
 * - Decisions: each answered interrupt (`thread.answers`) leaves a line
 *   after the messages of the run that asked, saying what was decided and
 *   when (`data-agk-decision="<interruptId>"`, focusable with `tabIndex={-1}`).
 * - Headings: a reply's `#` is one level below the heading above the list
 *   (h2 when there is none; `headingLevel` sets it).
 * - Screen readers: the list is a `role="log"` with `aria-live="off"` and
 *   `aria-busy` while a run is running, because a live log would read every
 *   token; a polite status region reads each new reply once, when complete,
 *   as plain text (no Markdown syntax), capped at about 300 characters with
 *   how much more there is, and with its "may be incomplete" note when its
 *   run cut it short.
 * - Forwards its ref to its root and takes `className`, `style` and DOM props.
 *
 * @example
 * <div style={{ height: 600 }}>
 *   <MessageList renderTool={toolRenderers({ get_weather: (call) => <Weather call={call} /> })} />
 * </div>
 */
export const MessageList = React.forwardRef<HTMLDivElement, MessageListProps>(function MessageList(
  { renderTool, renderMessage, subagents = 'grouped', virtualization = {}, empty, label, headingLevel, className, ...rest },
  ref,
) {
  const { messages } = useLocale();
  const strings = messages.messages;
  const store = useAgentStore();
  const outline = useMessageOutline(subagents);
  const running = useRunStatus() === 'running';
  const scroll = useAutoScroll();
  const { announcement, onSettled } = useLiveAnnouncer();
  const viewport = React.useRef<HTMLElement | null>(null);
  const root = React.useRef<HTMLDivElement | null>(null);
  // The virtualizer reads its first offset from the element, so it mounts once the element is there.
  const [viewportReady, setViewportReady] = React.useState(false);
  const [levelAbove, setLevelAbove] = React.useState<number | undefined>(undefined);
  const draw = React.useCallback(
    (id: string) => (renderMessage ? renderMessage(id) : <Message key={id} id={id} renderTool={renderTool} />),
    [renderMessage, renderTool],
  );
  const view = React.useMemo(() => ({ outline, renderMessage: draw }), [outline, draw]);
  const answers = useAgentSelector((s) => s.thread.answers);
  const decisions = React.useMemo(() => readDecisions(store, answers, strings.decision), [store, answers, strings.decision]);
  const decisionsById = React.useMemo(() => new Map(decisions.map((d) => [d.interruptId, d])), [decisions]);
  const { viewportRef } = scroll;
  const attachViewport = React.useCallback(
    (node: HTMLDivElement | null) => {
      viewport.current = node;
      setViewportReady(node !== null);
      // The scroll hook's ref cleans up after itself when called again (with null, or another node).
      viewportRef(node);
    },
    [viewportRef],
  );
  const attachRoot = React.useCallback(
    (node: HTMLDivElement | null) => {
      root.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  React.useEffect(() => {
    if (headingLevel === undefined && root.current) setLevelAbove(headingLevelAbove(root.current) ?? 1);
  }, [headingLevel]);
  const getViewport = React.useCallback(() => viewport.current, []);
  const rows = React.useMemo(() => placeDecisions(outline.rows, decisions, store.getState().thread), [outline.rows, decisions, store]);
  const virtual = rows.length > (virtualization.above ?? 200);
  const level = headingLevel ?? Math.min(6, (levelAbove ?? 2) + 1);

  return (
    <div
      {...rest}
      ref={attachRoot}
      className={cx('agk-messages agk-root', className)}
      data-scroll={scroll.state}
      data-virtualization={virtual ? 'on' : 'off'}
    >
      <ThreadViewContext.Provider value={view}>
        <AnnouncerContext.Provider value={onSettled}>
          <DecisionsContext.Provider value={decisionsById}>
            <MarkdownHeadingLevel.Provider value={level}>
              <div
                ref={attachViewport}
                className="agk-messages__viewport"
                role="log"
                aria-live="off"
                aria-label={label ?? strings.list.label}
                aria-busy={running || undefined}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled
                tabIndex={0}
              >
                {rows.length === 0 ? (
                  <div className="agk-messages__empty">{empty ?? strings.list.empty}</div>
                ) : virtual ? (
                  viewportReady ? (
                    <VirtualRows rows={rows} options={virtualization} getViewport={getViewport} following={scroll.state === 'following'} />
                  ) : null
                ) : (
                  <div className="agk-messages__content" ref={scroll.contentRef}>
                    {rows.map((item) => (
                      <div key={keyOf(item, 0)} className="agk-messages__row" data-kind={item.kind}>
                        <ListRow item={item} />
                      </div>
                    ))}
                  </div>
                )}
              </div>
            </MarkdownHeadingLevel.Provider>
          </DecisionsContext.Provider>
        </AnnouncerContext.Provider>
      </ThreadViewContext.Provider>
      {scroll.state === 'paused' ? (
        <button type="button" className="agk-button agk-messages__jump" onClick={scroll.jumpToLatest}>
          {strings.list.jumpToLatest} <span aria-hidden="true">↓</span>
        </button>
      ) : null}
      <p className="agk-visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
});

function VirtualRows({
  rows,
  options,
  getViewport,
  following,
}: {
  rows: readonly Row[];
  options: VirtualizationOptions;
  getViewport: () => HTMLElement | null;
  following: boolean;
}) {
  const estimate = options.estimateSize ?? 96;
  const { items, rowRef, sizerRef } = useListVirtualizer({
    count: rows.length,
    getScrollElement: getViewport,
    estimateSize: () => estimate,
    overscan: options.overscan ?? 6,
    getItemKey: (index) => keyOf(rows[index], index),
    paddingStart: ROW_PADDING_START,
    // The virtualizer writes its first offset to the element: start at the end of the estimated rows when
    // following (exactly the end, or the write would not move the element and never be corrected), and
    // keep the reader's place when a growing thread crosses the threshold while they read.
    initialOffset: () => {
      const el = getViewport();
      if (!el) return 0;
      return following ? Math.max(0, ROW_PADDING_START + rows.length * estimate - el.clientHeight) : el.scrollTop;
    },
    ...(options.initialRect ? { initialRect: options.initialRect } : {}),
  });
  // The sizer's height and the rows' offsets are written by the virtualizer, not rendered (see useListVirtualizer).
  return (
    <div className="agk-messages__content" data-virtual="" ref={sizerRef}>
      {items.map((row) => {
        const item = rows[row.index];
        return item ? (
          <div key={row.key} className="agk-messages__row" data-index={row.index} data-kind={item.kind} ref={rowRef}>
            <ListRow item={item} />
          </div>
        ) : null;
      })}
    </div>
  );
}
