'use client';

import type { ContentPart, MessageRecord, MessageRole, RunStatus } from '@aguikit/core';
import { useAgentStore, useLastReplyId, useMessage, useRunSummary, useToolCall } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { CodeText } from './LongText.js';
import { useAnnounceWhenSettled } from './liveAnnouncer.js';
import { useLocale } from './locale.js';
import type { en as messageStrings } from './locales/messages.js';
import { ContentParts, contentText, MessageText, type TextFormat } from './MessageContent.js';
import { Reasoning } from './Reasoning.js';
import { type RenderTool, ToolCallCard } from './ToolCall.js';
import { type PartPresence, usePartPresence, useRegisterPart } from './usePartPresence.js';
import { useThreadKey } from './useStoreSwitch.js';

type MessageStrings = typeof messageStrings;

/**
 * What a message's `data-status` says: `streaming` between START and END;
 * `error` for a tool message that reports an error, and for the last reply
 * (assistant or reasoning message) of a run that failed — the one the
 * failure may have cut short; `complete` otherwise.
 */
export type MessageStatus = 'streaming' | 'complete' | 'error';

/**
 * What a message's `data-state` says, for styling: `streaming`, `complete`,
 * or `incomplete` for a reply its run's failure or lost connection may have
 * cut short.
 */
export type MessageState = 'streaming' | 'complete' | 'incomplete';

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

const cx = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

/** The status of a message, given how its run ended and whether it is that run's last reply. */
function messageStatus(message: MessageRecord, runStatus: RunStatus | undefined, lastReply: boolean): MessageStatus {
  if (message.streaming) return 'streaming';
  if (message.error !== undefined) return 'error';
  // Stopped while it streamed: what came is shown, and said to be perhaps not all.
  if (message.stopped) return 'error';
  // A run that failed, or whose stream was cut, may have cut its last reply short.
  if (lastReply && (runStatus === 'error' || runStatus === 'unknown')) return 'error';
  return 'complete';
}

function messageState(message: MessageRecord, status: MessageStatus): MessageState {
  if (status === 'streaming') return 'streaming';
  return status === 'error' && message.role !== 'tool' ? 'incomplete' : 'complete';
}

/** A message read by id, with its status and state as its run's end leaves them (`message` undefined until it exists). */
function useMessageStatus(id: string): { message: MessageRecord | undefined; status: MessageStatus; state: MessageState } {
  const message = useMessage(id);
  const runStatus = useRunSummary(message?.runId)?.status;
  const lastReply = useLastReplyId(message?.runId) === id;
  const status = message ? messageStatus(message, runStatus, lastReply) : 'complete';
  const state = message ? messageState(message, status) : 'complete';
  return { message, status, state };
}

/**
 * Tells the list's live announcer when a message it draws has settled, and
 * whether it may be incomplete: drawn beside each row, so a reply is
 * announced however the app draws it (`renderMessage`). Renders nothing.
 */
export function MessageSettled({ id }: { id: string }) {
  const { message, status, state } = useMessageStatus(id);
  useAnnounceWhenSettled(id, message !== undefined && status !== 'streaming', state === 'incomplete');
  return null;
}

interface MessageContextValue {
  message: MessageRecord;
  status: MessageStatus;
  label: string;
  authorId: string;
  /** The Header registers here: the root is named by the author it shows, or, without one, by a label of its own. */
  header: PartPresence;
  details: { open: boolean; setOpen: (open: boolean) => void; id: string };
}

const MessageContext = clientContext<MessageContextValue | null>(null);

function useMessagePart(part: string): MessageContextValue {
  const value = React.useContext(MessageContext);
  if (!value) throw new Error(`Message.${part} must be used within <Message.Root>.`);
  return value;
}

/** Props of `Message.Root`: the message's id, and any prop of an `article`. */
export interface MessageRootProps extends React.HTMLAttributes<HTMLElement> {
  id: string;
}

const Root = React.forwardRef<HTMLElement, MessageRootProps>(function MessageRoot({ id, className, children, ...rest }, ref) {
  useAgentStore('<Message.Root>');
  const { message, status, state } = useMessageStatus(id);
  const { messages } = useLocale();
  const [open, setOpen] = React.useState(false);
  const detailsId = React.useId();
  const authorId = React.useId();
  const header = usePartPresence();
  if (!message) return null;
  const role = messages.messages.roles[message.role];
  const label = message.name ? messages.messages.named(role, message.name) : role;
  // Named by the author its Header shows; without a Header (or for a tool result or reasoning, whose Header shows no
  // author), by the same words as its own label. A name the app gives wins.
  const named = rest['aria-label'] !== undefined || rest['aria-labelledby'] !== undefined;
  const byHeader = header.present && message.role !== 'tool' && message.role !== 'reasoning';
  return (
    <MessageContext.Provider value={{ message, status, label, authorId, header, details: { open, setOpen, id: detailsId } }}>
      <article
        {...(named ? {} : byHeader ? { 'aria-labelledby': authorId } : { 'aria-label': label })}
        {...rest}
        ref={ref}
        className={cx('agk-message agk-root', className)}
        data-role={message.role}
        data-status={status}
        data-state={state}
        data-subagent={message.subagentRunId}
        aria-busy={status === 'streaming' || undefined}
      >
        {children}
      </article>
    </MessageContext.Provider>
  );
});

/**
 * The first letter of a name, for an avatar (a whole character, so "助" and emoji stay whole), upper-cased by the
 * rules of the components' language: never the machine's, so a server and a browser set to Turkish and English agree.
 */
function initialOf(name: string, lang: string): string {
  const first = Array.from(name.trim())[0] ?? '';
  try {
    return first.toLocaleUpperCase(lang);
  } catch {
    return first.toUpperCase();
  }
}

const Header = React.forwardRef<HTMLElement, React.HTMLAttributes<HTMLElement>>(function MessageHeader({ className, ...rest }, ref) {
  const { message, status, label, authorId, header, details } = useMessagePart('Header');
  const { messages, lang } = useLocale();
  useRegisterPart(header);
  const strings = messages.messages;
  const hasDetails = message.metadata !== undefined && Object.keys(message.metadata).length > 0;
  return (
    <header {...rest} ref={ref} className={cx('agk-message__header', className)}>
      {message.role === 'assistant' ? (
        <span className="agk-message__avatar" aria-hidden="true" data-initial={initialOf(message.name ?? strings.roles.assistant, lang)} />
      ) : null}
      {message.role === 'tool' ? null : (
        <span
          id={authorId}
          // A person's own bubble needs no name on screen: its place says it; a screen reader still hears it.
          className={message.role === 'user' ? 'agk-message__author agk-visually-hidden' : 'agk-message__author'}
        >
          {label}
        </span>
      )}
      {message.role === 'activity' && message.activityType ? <code className="agk-message__kind">{message.activityType}</code> : null}
      {status === 'streaming' ? (
        <span className="agk-message__typing">
          <span className="agk-visually-hidden">{strings.writing}</span>
          <span className="agk-message__dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
        </span>
      ) : null}
      {status === 'error' && message.role === 'tool' ? (
        <span className="agk-badge" data-tone="danger">
          {strings.toolError}
        </span>
      ) : null}
      {hasDetails ? (
        <button
          type="button"
          className="agk-message__details-toggle"
          aria-expanded={details.open}
          aria-controls={details.id}
          data-state={details.open ? 'open' : 'closed'}
          onClick={() => details.setOpen(!details.open)}
        >
          {strings.details}
        </button>
      ) : null}
    </header>
  );
});

const Body = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function MessageBody({ className, ...rest }, ref) {
  const { message, status } = useMessagePart('Body');
  const { messages } = useLocale();
  const strings = messages.messages;
  const { content, role } = message;
  let body: ReactNode;
  if (role === 'tool') body = <ToolResult message={message} strings={strings} />;
  else if (role === 'activity' || (typeof content === 'object' && !Array.isArray(content))) {
    const plan = planOf(content);
    body = plan ? (
      <Plan plan={plan} strings={strings} />
    ) : (
      <pre className="agk-code agk-message__json">{JSON.stringify(content, null, 2)}</pre>
    );
  } else if (typeof content === 'string') body = <MessageText text={content} format={TEXT_FORMAT[role]} />;
  else body = <ContentParts parts={content as readonly ContentPart[]} format={TEXT_FORMAT[role]} author={authorOf(role)} />;
  return (
    <div {...rest} ref={ref} className={cx('agk-message__body', className)}>
      {body}
      {status === 'error' && role !== 'tool' ? <p className="agk-message__note agk-message__incomplete">{strings.incomplete}</p> : null}
    </div>
  );
});

/** A step's state in a plan. */
type StepState = 'done' | 'in_progress' | 'pending' | 'failed' | 'skipped';

/** An activity plan: `{ title?, steps: [string | { title | description | name | label | text, status | done }] }`. */
interface PlanView {
  title?: string;
  steps: Array<{ title: string; state: StepState }>;
}

const STEP_STATES: Record<string, StepState> = {
  done: 'done',
  complete: 'done',
  completed: 'done',
  finished: 'done',
  success: 'done',
  succeeded: 'done',
  in_progress: 'in_progress',
  'in-progress': 'in_progress',
  inprogress: 'in_progress',
  running: 'in_progress',
  active: 'in_progress',
  current: 'in_progress',
  started: 'in_progress',
  doing: 'in_progress',
  failed: 'failed',
  error: 'failed',
  skipped: 'skipped',
  cancelled: 'skipped',
  canceled: 'skipped',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function stepOf(step: unknown): { title: string; state: StepState } {
  if (!isRecord(step)) return { title: typeof step === 'string' ? step : JSON.stringify(step), state: 'pending' };
  const named = ['title', 'description', 'name', 'label', 'text'].map((key) => step[key]).find((v) => typeof v === 'string');
  const status = typeof step.status === 'string' ? STEP_STATES[step.status.toLowerCase()] : undefined;
  const state = status ?? (step.done === true || step.completed === true ? 'done' : 'pending');
  return { title: typeof named === 'string' ? named : JSON.stringify(step), state };
}

/** The plan an activity's content holds, if it is one (it has a `steps` array). */
function planOf(content: MessageRecord['content']): PlanView | undefined {
  if (!isRecord(content) || !Array.isArray(content.steps)) return undefined;
  const title = typeof content.title === 'string' && content.title.trim() !== '' ? content.title : undefined;
  return { ...(title ? { title } : {}), steps: content.steps.map(stepOf) };
}

function Plan({ plan, strings }: { plan: PlanView; strings: MessageStrings }) {
  const titleId = React.useId();
  return (
    <div className="agk-plan">
      {plan.title ? (
        <p className="agk-plan__title" id={titleId}>
          {plan.title}
        </p>
      ) : null}
      <ol className="agk-plan__steps" {...(plan.title ? { 'aria-labelledby': titleId } : { 'aria-label': strings.plan.label })}>
        {plan.steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps have no id of their own; a delta patches them by index
          <li key={i} className="agk-plan__step" data-state={step.state}>
            <span className="agk-plan__icon" aria-hidden="true" />
            {strings.plan.step(step.title, strings.plan[step.state])}
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The content of a tool message whose call is not on screen (an orphan
 * result): what it answered, and what it said. A result whose call is on
 * screen is not drawn at all (see `Message`).
 */
function ToolResult({ message, strings }: { message: MessageRecord; strings: MessageStrings }) {
  const call = useToolCall(message.toolCallId ?? '');
  const name = call?.name || message.toolCallId || strings.aToolCall;
  return (
    <>
      <p className="agk-message__note">
        <span aria-hidden="true">↳ </span>
        {strings.resultFor} <code>{name}</code>
      </p>
      {message.error !== undefined ? <p className="agk-error-text">{message.error}</p> : null}
      <CodeText text={contentText(message.content)} />
    </>
  );
}

/** Props of `Message.ToolCalls`: how the message's tool calls are drawn, and any prop of a `div`. */
export interface MessageToolCallsProps extends React.HTMLAttributes<HTMLDivElement> {
  renderTool?: RenderTool | undefined;
}

const ToolCalls = React.forwardRef<HTMLDivElement, MessageToolCallsProps>(function MessageToolCalls(
  { renderTool, className, ...rest },
  ref,
) {
  const { message } = useMessagePart('ToolCalls');
  if (!message.toolCallIds?.length) return null;
  return (
    <div {...rest} ref={ref} className={cx('agk-message__tools', className)}>
      {message.toolCallIds.map((id) => (
        <ToolCallCard key={id} id={id} {...(renderTool ? { renderTool } : {})} />
      ))}
    </div>
  );
});

const Details = React.forwardRef<HTMLDListElement, React.HTMLAttributes<HTMLDListElement>>(function MessageDetails(
  { className, ...rest },
  ref,
) {
  const { message, details } = useMessagePart('Details');
  if (!message.metadata) return null;
  return (
    <dl
      {...rest}
      ref={ref}
      className={cx('agk-message__details', className)}
      id={details.id}
      hidden={!details.open}
      data-state={details.open ? 'open' : 'closed'}
    >
      {Object.entries(message.metadata).map(([key, value]) => (
        <div key={key} className="agk-message__detail">
          <dt>{key}</dt>
          <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
});

function authorOf(role: MessageRole): 'user' | 'tool' | 'agent' {
  return role === 'user' ? 'user' : role === 'tool' ? 'tool' : 'agent';
}

/** Props of `Message`: which message, how its tool calls are drawn, and any prop of its `article`. */
export interface MessageProps extends React.HTMLAttributes<HTMLElement> {
  id: string;
  /** Replaces the card of a tool call (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool | undefined;
}

/** A tool message whose call's card (or custom renderer) is on screen: that card already shows the result. */
function useShownOnItsCard(id: string): boolean {
  const message = useMessage(id);
  const call = useToolCall(message?.role === 'tool' ? (message.toolCallId ?? '') : '');
  const parent = useMessage(call?.parentMessageId ?? '');
  const onScreen = call !== undefined && parent?.toolCallIds?.includes(message?.toolCallId ?? '') === true;
  return message?.role === 'tool' && onScreen && call.result?.messageId === id;
}

const MessageView = React.memo(
  React.forwardRef<HTMLElement, MessageProps>(function Message({ id, renderTool, ...rest }, ref) {
    useAgentStore('<Message>');
    // Keyed by its thread: what a reader did inside a message (a long text shown whole, a disclosure opened) is not
    // kept for another thread's message under the same id.
    const thread = useThreadKey();
    if (useShownOnItsCard(id)) return null;
    return (
      <Root key={thread} id={id} ref={ref} {...rest}>
        <MessageParts id={id} renderTool={renderTool} />
      </Root>
    );
  }),
);

function MessageParts({ id, renderTool }: { id: string; renderTool?: RenderTool | undefined }) {
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
 * and subscribed to its own record). `data-role`, `data-status`
 * (`streaming | complete | error`) and `data-state`
 * (`streaming | complete | incomplete`) say what it is.
 *
 * - A person's message is a bubble at the end of the line, their text
 *   verbatim; an assistant's reply has a small avatar (its initial) and its
 *   name, its text safe Markdown, and animated dots while it streams (still
 *   under `prefers-reduced-motion`).
 * - A reply its run's failure or lost connection may have cut short keeps one
 *   short mark ("This reply may be incomplete."); the error itself is the run
 *   status's to show.
 * - Images follow the URL policy (http(s) and data:image only), other parts
 *   are labelled placeholders.
 * - An assistant's tool calls are `ToolCallCard` chips; a tool message whose
 *   call is on screen (as a card, or through `renderTool`) is not drawn, the
 *   card shows the result; an orphan result shows what it said.
 * - An activity whose content is a plan (`steps`) is a checklist, each step
 *   done / in progress / pending in words; any other activity is its JSON.
 * - Metadata opens on demand ("Details"); a reasoning message is a
 *   `Reasoning` disclosure.
 *
 * The parts (`Message.Root`, `Header`, `Body`, `ToolCalls`, `Details`)
 * compose a message of your own; each forwards its ref and takes
 * `className`, `style` and DOM props. The root is named by the author its
 * `Header` shows, or, composed without one, by the same words as a label of
 * its own; an `aria-label` or `aria-labelledby` given to it wins.
 *
 * @example
 * <Message id={id} renderTool={renderTool} />
 * <Message.Root id={id}><Message.Body /><Message.ToolCalls /></Message.Root>
 */
export const Message = Object.assign(MessageView, { Root, Header, Body, ToolCalls, Details });
