'use client';

import type { SubagentRecord } from '@aguikit/core';
import { useAgentStore, useSubagents } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { useLocale } from './locale.js';
import { Message } from './Message.js';
import type { RenderTool } from './ToolCall.js';
import { groupItems, type OutlineItem, type ThreadView, ThreadViewContext, useMessageOutline } from './useMessageOutline.js';
import { useOpenState } from './useOpenState.js';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** A subagent's status as shown: its record's, or `unknown` for messages naming a subagent never announced. */
export type SubagentDisplayStatus = SubagentRecord['status'] | 'unknown';

const TONES: Record<SubagentDisplayStatus, Tone> = {
  running: 'info',
  success: 'success',
  suspended: 'warning',
  error: 'danger',
  cancelled: 'neutral',
  unknown: 'neutral',
};

const cx = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

/** Props of `SubagentStatusBadge`: the status, and any prop of a `span`. */
export interface SubagentStatusBadgeProps extends React.HTMLAttributes<HTMLSpanElement> {
  status: SubagentDisplayStatus;
}

/**
 * A subagent's status in words (never color alone), as `data-status`.
 *
 * @example
 * <SubagentStatusBadge status="suspended" />
 */
export const SubagentStatusBadge = React.forwardRef<HTMLSpanElement, SubagentStatusBadgeProps>(function SubagentStatusBadge(
  { status, className, ...rest },
  ref,
) {
  const { messages } = useLocale();
  return (
    <span
      {...rest}
      ref={ref}
      className={cx('agk-badge agk-root', className)}
      data-tone={TONES[status]}
      data-status={status}
      data-state={status}
    >
      {messages.messages.subagent.status[status]}
    </span>
  );
});

/** Props of `SubagentGroup`: the subagent, what the group holds, and its open state (controlled or not). */
export interface SubagentGroupProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'id' | 'children'> {
  /** The subagent's `subagentRunId`. */
  id: string;
  /** What the group holds; by default the subagent's messages and nested groups, in thread order. */
  children?: ReactNode;
  /** Controlled open state; leave undefined to let the group keep its own. */
  open?: boolean;
  /** Initial open state when uncontrolled; open by default. */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** For a group rendered on its own (outside `MessageList`): replaces tool-call cards. */
  renderTool?: RenderTool;
}

/**
 * What one subagent did, as a labelled, collapsible group: its name, a
 * status badge (running / done / suspended / failed, with the error's code
 * and message), and its messages — each attributed by `subagentRunId` —
 * with the groups of the subagents it started (`parentSubagentRunId`)
 * nested inside. `data-status` and `data-state="open|closed"` say where it
 * is. Inside a `MessageList` it is placed for you; on its own it reads the
 * thread itself. It is a `role="group"` named by its name and status; a
 * `role`, `aria-label` or `aria-labelledby` given to it wins.
 *
 * @example
 * <SubagentGroup id="researcher-1" />
 */
export const SubagentGroup = React.forwardRef<HTMLDivElement, SubagentGroupProps>(function SubagentGroup(props, ref) {
  useAgentStore('<SubagentGroup>');
  const view = React.useContext(ThreadViewContext);
  return view ? <Group {...props} view={view} groupRef={ref} /> : <StandaloneGroup {...props} groupRef={ref} />;
});

type GroupRef = { groupRef: React.ForwardedRef<HTMLDivElement> };

function StandaloneGroup(props: SubagentGroupProps & GroupRef) {
  const { renderTool } = props;
  const outline = useMessageOutline('grouped');
  const renderMessage = React.useCallback((id: string) => <Message key={id} id={id} renderTool={renderTool} />, [renderTool]);
  const view = React.useMemo(() => ({ outline, renderMessage }), [outline, renderMessage]);
  return (
    <ThreadViewContext.Provider value={view}>
      <Group {...props} view={view} />
    </ThreadViewContext.Provider>
  );
}

function Group({
  id,
  children,
  open,
  defaultOpen = true,
  onOpenChange,
  renderTool: _renderTool,
  view,
  groupRef,
  className,
  ...rest
}: SubagentGroupProps & GroupRef & { view: ThreadView }) {
  const { messages, format } = useLocale();
  const strings = messages.messages.subagent;
  const subagents = useSubagents();
  const record = Object.hasOwn(subagents, id) ? subagents[id] : undefined;
  const [isOpen, setOpen] = useOpenState(open, defaultOpen, onOpenChange);
  const triggerId = React.useId();
  const badgeId = React.useId();
  const panelId = React.useId();
  const status: SubagentDisplayStatus = record?.status ?? 'unknown';
  const state = isOpen ? 'open' : 'closed';
  const items = groupItems(view.outline, id);
  const name = record?.name ?? id;
  // Whether the name is cut, while the toggle has focus: keyboard focus then shows it whole (messages.css).
  const [fullName, setFullName] = React.useState(false);
  const waitingOn = record?.status === 'suspended' ? (record.interruptIds?.length ?? 0) : 0;
  // Named by its name and status, unless the app names it; the app's role wins too.
  const named = rest['aria-label'] !== undefined || rest['aria-labelledby'] !== undefined;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a subagent's messages
    <div
      role="group"
      {...(named ? {} : { 'aria-labelledby': `${triggerId} ${badgeId}` })}
      {...rest}
      ref={groupRef}
      className={cx('agk-subagent agk-root', className)}
      data-status={status}
      data-state={state}
      data-subagent={id}
    >
      <div className="agk-subagent__header">
        <button
          type="button"
          id={triggerId}
          className="agk-subagent__trigger"
          aria-expanded={isOpen}
          aria-controls={panelId}
          data-state={state}
          data-full-name={fullName ? 'true' : undefined}
          onClick={() => setOpen(!isOpen)}
          onFocus={(e) => {
            const shown = e.currentTarget.querySelector('.agk-subagent__name');
            setFullName(shown !== null && shown.scrollWidth > shown.clientWidth + 1);
          }}
          onKeyDown={(e) => {
            // Escape hides the whole name shown under keyboard focus; focus stays.
            if (e.key !== 'Escape' || !fullName || !e.currentTarget.matches(':focus-visible')) return;
            e.preventDefault();
            setFullName(false);
          }}
          onBlur={() => setFullName(false)}
        >
          <span className="agk-chevron" aria-hidden="true" />
          <span className="agk-subagent__label">
            <span className="agk-subagent__name" title={name}>
              {name}
            </span>
            {/* The whole name over what follows, under keyboard focus: nothing moves. The toggle is named by the name above. */}
            <span className="agk-subagent__fullname" aria-hidden="true">
              {name}
            </span>
          </span>
        </button>
        <SubagentStatusBadge id={badgeId} status={status} />
      </div>
      {record?.description ? <p className="agk-subagent__description">{record.description}</p> : null}
      {record?.status === 'error' && record.error ? (
        <p className="agk-subagent__error agk-error-text">
          {record.error.code ? <code>{record.error.code}</code> : null} {record.error.message}
        </p>
      ) : null}
      {waitingOn ? <p className="agk-subagent__description">{strings.waitingOn(waitingOn, format.number(waitingOn))}</p> : null}
      <div className="agk-subagent__body" id={panelId} hidden={!isOpen}>
        {children ?? (items.length ? <OutlineRows items={items} /> : <p className="agk-subagent__empty">{strings.empty}</p>)}
      </div>
    </div>
  );
}

/** Rows of an outline: a message as the list draws it, or a subagent's group. */
function OutlineRows({ items }: { items: readonly OutlineItem[] }) {
  return items.map((item) => <OutlineRow key={`${item.kind}:${item.id}`} item={item} />);
}

/** One row of an outline. */
export function OutlineRow({ item }: { item: OutlineItem }) {
  const view = React.useContext(ThreadViewContext);
  if (!view) return null;
  return item.kind === 'message' ? view.renderMessage(item.id) : <SubagentGroup id={item.id} />;
}
