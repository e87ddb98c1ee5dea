'use client';

import { useAgentStore, useRunStatus } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { DecisionLine, DecisionsContext, type Row, useDecisionRows } from './decisionLines.js';
import { AnnouncerContext, useLiveAnnouncer } from './liveAnnouncer.js';
import { useLocale } from './locale.js';
import { MarkdownHeadingLevel } from './Markdown.js';
import { Message, MessageSettled } from './Message.js';
import { OutlineRow } from './SubagentGroup.js';
import type { RenderTool } from './ToolCall.js';
import { useAutoScroll } from './useAutoScroll.js';
import { useListVirtualizer } from './useListVirtualizer.js';
import { useMergedRef } from './useMergedRef.js';
import { type SubagentLayout, ThreadViewContext, useMessageOutline } from './useMessageOutline.js';
import { useThreadKey } from './useStoreSwitch.js';

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
  /**
   * Draws one message, in place of `<Message id={id} renderTool={renderTool} />`;
   * return undefined to keep the default message, null to draw nothing (as
   * `renderTool` does). Keep it stable too. A finished reply is announced
   * however it is drawn, unless it is drawn as nothing.
   */
  renderMessage?: (id: string) => ReactNode | undefined;
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

/** A row's key: its thread's (a row of another thread under the same id is mounted anew: nothing opened in one is open in the other) and its own. */
const keyOf = (thread: string, item: Row | undefined, index: number) => (item ? `${thread}|${item.kind}:${item.id}` : index);

const cx = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

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
  useAgentStore('<MessageList>');
  const { messages, lang } = useLocale();
  const strings = messages.messages;
  const store = useAgentStore();
  const outline = useMessageOutline(subagents);
  const running = useRunStatus() === 'running';
  const scroll = useAutoScroll();
  const thread = useThreadKey();
  const { announcement, onSettled } = useLiveAnnouncer(thread);
  const viewport = React.useRef<HTMLElement | null>(null);
  const root = React.useRef<HTMLDivElement | null>(null);
  // The virtualizer reads its first offset from the element, so it mounts once the element is there.
  const [viewportReady, setViewportReady] = React.useState(false);
  const [levelAbove, setLevelAbove] = React.useState<number | undefined>(undefined);
  const draw = React.useCallback(
    (id: string) => {
      const custom = renderMessage ? renderMessage(id) : undefined;
      if (custom === null) return null;
      return (
        <React.Fragment key={id}>
          {custom === undefined ? <Message id={id} renderTool={renderTool} /> : custom}
          {/* Beside the message, not inside it: a reply is announced whether or not the app draws it with Message.Root. */}
          <MessageSettled id={id} />
        </React.Fragment>
      );
    },
    [renderMessage, renderTool],
  );
  const view = React.useMemo(() => ({ outline, renderMessage: draw }), [outline, draw]);
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
  const attachRoot = useMergedRef(root, ref);
  React.useEffect(() => {
    if (headingLevel === undefined && root.current) setLevelAbove(headingLevelAbove(root.current) ?? 1);
  }, [headingLevel]);
  const getViewport = React.useCallback(() => viewport.current, []);
  const { rows, decisionsById } = useDecisionRows(store, outline.rows);
  const virtual = rows.length > (virtualization.above ?? 200);
  const level = headingLevel ?? Math.min(6, (levelAbove ?? 2) + 1);

  return (
    <div
      lang={lang}
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
                    <VirtualRows
                      rows={rows}
                      thread={thread}
                      options={virtualization}
                      getViewport={getViewport}
                      following={scroll.state === 'following'}
                    />
                  ) : null
                ) : (
                  <div className="agk-messages__content" ref={scroll.contentRef}>
                    {rows.map((item) => (
                      <div key={keyOf(thread, item, 0)} className="agk-messages__row" data-kind={item.kind}>
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
        {announcement.text ? <span key={announcement.n}>{announcement.text}</span> : null}
      </p>
    </div>
  );
});

function VirtualRows({
  rows,
  thread,
  options,
  getViewport,
  following,
}: {
  rows: readonly Row[];
  thread: string;
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
    getItemKey: (index) => keyOf(thread, rows[index], index),
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
