'use client';

import type { ContentPart, MessageRecord, MessageRole, RunStatus } from '@aguikit/core';
import { useLastReplyId, useMessage, useRunSummary, useToolCall } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { useAnnounceWhenSettled } from './liveAnnouncer.js';
import { ContentParts, contentText, MessageText, type TextFormat } from './MessageContent.js';
import { Reasoning } from './Reasoning.js';
import { type RenderTool, ToolCallCard } from './ToolCall.js';

/**
 * What a message's `data-status` says: `streaming` between START and END;
 * `error` for a tool message that reports an error, and for the last reply
 * (assistant or reasoning message) of a run that failed — the one the
 * failure may have cut short; `complete` otherwise.
 */
export type MessageStatus = 'streaming' | 'complete' | 'error';

const ROLE_LABELS: Record<MessageRole, string> = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  developer: 'Developer',
  tool: 'Tool result',
  reasoning: 'Reasoning',
  activity: 'Activity',
};

// What a person or a system wrote is shown verbatim: Markdown would reinterpret `*`, `_` and `#` they typed.
const TEXT_FORMAT: Record<MessageRole, TextFormat> = {
  user: 'plain',
  assistant: 'markdown',
  system: 'plain',
  developer: 'plain',
  tool: 'plain',
  reasoning: 'plain',
  activity: 'plain',
};

/** The status of a message, given how its run ended and whether it is that run's last reply. */
function messageStatus(message: MessageRecord, runStatus: RunStatus | undefined, lastReply: boolean): MessageStatus {
  if (message.streaming) return 'streaming';
  if (message.error !== undefined) return 'error';
  // A run that failed, or whose stream was cut, may have cut its last reply short.
  if (lastReply && (runStatus === 'error' || runStatus === 'unknown')) return 'error';
  return 'complete';
}

interface MessageContextValue {
  message: MessageRecord;
  status: MessageStatus;
  label: string;
  details: { open: boolean; setOpen: (open: boolean) => void; id: string };
}

const MessageContext = clientContext<MessageContextValue | null>(null);

function useMessagePart(part: string): MessageContextValue {
  const value = React.useContext(MessageContext);
  if (!value) throw new Error(`Message.${part} must be used within <Message.Root>.`);
  return value;
}

function Root({ id, children }: { id: string; children: ReactNode }) {
  const message = useMessage(id);
  const runStatus = useRunSummary(message?.runId)?.status;
  const lastReply = useLastReplyId(message?.runId) === id;
  const [open, setOpen] = React.useState(false);
  const detailsId = React.useId();
  const status = message ? messageStatus(message, runStatus, lastReply) : 'complete';
  useAnnounceWhenSettled(id, message !== undefined && status !== 'streaming');
  if (!message) return null;
  const label = message.name ? `${ROLE_LABELS[message.role]} · ${message.name}` : ROLE_LABELS[message.role];
  return (
    <MessageContext.Provider value={{ message, status, label, details: { open, setOpen, id: detailsId } }}>
      <article
        className="agk-message agk-root"
        data-role={message.role}
        data-status={status}
        data-subagent={message.subagentRunId}
        aria-label={`${label} message`}
        aria-busy={status === 'streaming' || undefined}
      >
        {children}
      </article>
    </MessageContext.Provider>
  );
}

function Header() {
  const { message, status, label, details } = useMessagePart('Header');
  return (
    <header className="agk-message__header">
      {message.role === 'tool' ? null : <span className="agk-message__author">{label}</span>}
      {message.role === 'activity' && message.activityType ? <code className="agk-message__kind">{message.activityType}</code> : null}
      {status === 'streaming' ? (
        <span className="agk-badge" data-tone="info">
          Writing…
        </span>
      ) : null}
      {status === 'error' ? (
        <span className="agk-badge" data-tone="danger">
          {message.role === 'tool' ? 'Error' : 'Run failed'}
        </span>
      ) : null}
      {message.metadata && Object.keys(message.metadata).length ? (
        <button
          type="button"
          className="agk-message__details-toggle"
          aria-expanded={details.open}
          aria-controls={details.id}
          data-state={details.open ? 'open' : 'closed'}
          onClick={() => details.setOpen(!details.open)}
        >
          Details
        </button>
      ) : null}
    </header>
  );
}

function Body() {
  const { message, status } = useMessagePart('Body');
  const { content, role } = message;
  let body: ReactNode;
  if (role === 'tool') body = <ToolResult message={message} />;
  else if (role === 'activity' || (typeof content === 'object' && !Array.isArray(content))) {
    body = <pre className="agk-code agk-message__json">{JSON.stringify(content, null, 2)}</pre>;
  } else if (typeof content === 'string') body = <MessageText text={content} format={TEXT_FORMAT[role]} />;
  else body = <ContentParts parts={content as readonly ContentPart[]} format={TEXT_FORMAT[role]} author={authorOf(role)} />;
  return (
    <div className="agk-message__body">
      {body}
      {status === 'error' && role !== 'tool' ? (
        <p className="agk-message__note agk-error-text">The run failed or lost its connection here: this reply may be incomplete.</p>
      ) : null}
    </div>
  );
}

/**
 * A tool message is one line: the card of its call (in the assistant message
 * that made it) already shows the result. Only a result whose call is not on
 * screen — an orphan, or a card replaced by `renderTool` — shows its content.
 */
function ToolResult({ message }: { message: MessageRecord }) {
  const call = useToolCall(message.toolCallId ?? '');
  const onCard = call?.result?.messageId === message.id;
  const name = call?.name || message.toolCallId || 'a tool call';
  return (
    <>
      <p className="agk-message__note">
        <span aria-hidden="true">↳ </span>
        {onCard ? 'Result of ' : 'Result for '}
        <code>{name}</code>
        {onCard ? ', shown on its card.' : ''}
      </p>
      {message.error !== undefined ? <p className="agk-error-text">{message.error}</p> : null}
      {onCard ? null : <pre className="agk-code">{contentText(message.content)}</pre>}
    </>
  );
}

function ToolCalls({ renderTool }: { renderTool?: RenderTool | undefined }) {
  const { message } = useMessagePart('ToolCalls');
  if (!message.toolCallIds?.length) return null;
  return (
    <div className="agk-message__tools">
      {message.toolCallIds.map((id) => (
        <ToolCallCard key={id} id={id} {...(renderTool ? { renderTool } : {})} />
      ))}
    </div>
  );
}

function Details() {
  const { message, details } = useMessagePart('Details');
  if (!message.metadata) return null;
  return (
    <dl className="agk-message__details" id={details.id} hidden={!details.open} data-state={details.open ? 'open' : 'closed'}>
      {Object.entries(message.metadata).map(([key, value]) => (
        <div key={key} className="agk-message__detail">
          <dt>{key}</dt>
          <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function authorOf(role: MessageRole): string {
  return role === 'user' ? 'the user' : role === 'tool' ? 'the tool' : 'the agent';
}

/** Props of `Message`: which message, and how its tool calls are drawn. */
export interface MessageProps {
  id: string;
  /** Replaces the card of a tool call (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool | undefined;
}

const MessageView = React.memo(function Message({ id, renderTool }: MessageProps) {
  return (
    <Root id={id}>
      <MessageParts id={id} renderTool={renderTool} />
    </Root>
  );
});

function MessageParts({ id, renderTool }: MessageProps) {
  const { message } = useMessagePart('Parts');
  if (message.role === 'reasoning') return <Reasoning id={id} />;
  return (
    <>
      <Header />
      <Body />
      <ToolCalls renderTool={renderTool} />
      <Details />
    </>
  );
}

/**
 * One message, read by id: it re-renders for its own tokens only (memoized,
 * and subscribed to its own record). `data-role` and `data-status`
 * (`streaming | complete | error`) say what it is; agent text is safe
 * Markdown, a person's (user, system, developer) text verbatim; images follow
 * the URL policy (http(s) and data:image only), other parts are labelled
 * placeholders; an assistant's tool calls are `ToolCallCard`s, and a tool
 * message is one line, since its call's card already shows the result; an
 * activity shows its type and content as JSON; metadata opens on demand
 * ("Details"); a reasoning message is a `Reasoning` disclosure.
 * The parts (`Message.Root`, `Header`, `Body`, `ToolCalls`, `Details`) compose
 * a message of your own.
 *
 * @example
 * <Message id={id} renderTool={renderTool} />
 * <Message.Root id={id}><Message.Body /><Message.ToolCalls /></Message.Root>
 */
export const Message = Object.assign(MessageView, { Root, Header, Body, ToolCalls, Details });
