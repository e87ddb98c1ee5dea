'use client';

import { useRunStatus } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { AnnouncerContext, useLiveAnnouncer } from './liveAnnouncer.js';
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
export interface MessageListProps {
  /** Replaces the card of a tool call (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool;
  /** Draws one message, in place of `<Message id={id} renderTool={renderTool} />`; keep it stable too. */
  renderMessage?: (id: string) => ReactNode;
  /** `grouped` (default): a subagent's messages sit in its `SubagentGroup`, nested by parent. `inline`: in thread order. */
  subagents?: SubagentLayout;
  virtualization?: VirtualizationOptions;
  /** Shown while the thread has no messages. */
  empty?: ReactNode;
  /** The accessible name of the log. Default "Conversation". */
  label?: string;
}

/** Space above the first row, in px (the viewport has no vertical padding: the virtualizer owns that axis). */
const ROW_PADDING_START = 12;

const keyOf = (item: OutlineItem | undefined, index: number) => (item ? `${item.kind}:${item.id}` : index);

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
 * - Screen readers: the list is a `role="log"` with `aria-live="off"` and
 *   `aria-busy` while a run is running, because a live log would read every
 *   token; a polite status region reads each new reply once, when complete.
 *
 * @example
 * <div style={{ height: 600 }}>
 *   <MessageList renderTool={toolRenderers({ get_weather: (call) => <Weather call={call} /> })} />
 * </div>
 */
export function MessageList({
  renderTool,
  renderMessage,
  subagents = 'grouped',
  virtualization = {},
  empty,
  label = 'Conversation',
}: MessageListProps) {
  const outline = useMessageOutline(subagents);
  const running = useRunStatus() === 'running';
  const scroll = useAutoScroll();
  const { announcement, onSettled } = useLiveAnnouncer();
  const viewport = React.useRef<HTMLElement | null>(null);
  // The virtualizer reads its first offset from the element, so it mounts once the element is there.
  const [viewportReady, setViewportReady] = React.useState(false);
  const draw = React.useCallback(
    (id: string) => (renderMessage ? renderMessage(id) : <Message key={id} id={id} renderTool={renderTool} />),
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
  const getViewport = React.useCallback(() => viewport.current, []);
  const { rows } = outline;
  const virtual = rows.length > (virtualization.above ?? 200);

  return (
    <div className="agk-messages agk-root" data-scroll={scroll.state} data-virtualization={virtual ? 'on' : 'off'}>
      <ThreadViewContext.Provider value={view}>
        <AnnouncerContext.Provider value={onSettled}>
          <div
            ref={attachViewport}
            className="agk-messages__viewport"
            role="log"
            aria-live="off"
            aria-label={label}
            aria-busy={running || undefined}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled
            tabIndex={0}
          >
            {rows.length === 0 ? (
              <div className="agk-messages__empty">{empty ?? 'No messages yet.'}</div>
            ) : virtual ? (
              viewportReady ? (
                <VirtualRows rows={rows} options={virtualization} getViewport={getViewport} following={scroll.state === 'following'} />
              ) : null
            ) : (
              <div className="agk-messages__content" ref={scroll.contentRef}>
                {rows.map((item) => (
                  <div key={keyOf(item, 0)} className="agk-messages__row">
                    <OutlineRow item={item} />
                  </div>
                ))}
              </div>
            )}
          </div>
        </AnnouncerContext.Provider>
      </ThreadViewContext.Provider>
      {scroll.state === 'paused' ? (
        <button type="button" className="agk-button agk-messages__jump" onClick={scroll.jumpToLatest}>
          Jump to latest <span aria-hidden="true">↓</span>
        </button>
      ) : null}
      <p className="agk-visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}

function VirtualRows({
  rows,
  options,
  getViewport,
  following,
}: {
  rows: readonly OutlineItem[];
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
          <div key={row.key} className="agk-messages__row" data-index={row.index} ref={rowRef}>
            <OutlineRow item={item} />
          </div>
        ) : null;
      })}
    </div>
  );
}
