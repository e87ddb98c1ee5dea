'use client';

import { useAgentRun, useAgentStore } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { Composer } from './Composer.js';
import { ExpiryClock } from './Countdown.js';
import { InterruptDialog } from './InterruptDialog.js';
import { reasonKind } from './interruptForm.js';
import { useLocale } from './locale.js';
import { MessageList } from './Messages.js';
import { RunStatus } from './RunStatus.js';
import type { RenderTool } from './ToolCall.js';

export interface AgentChatProps extends Omit<React.ComponentPropsWithoutRef<'section'>, 'children'> {
  /** Custom cards for tool calls (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool;
  /** The composer's placeholder. */
  placeholder?: string;
  /** Which key sends a message: Enter (Shift+Enter for a new line), or Ctrl/Cmd+Enter (Enter for a new line). */
  sendOn?: 'enter' | 'mod-enter';
  /** Shown while the thread has no messages. */
  empty?: ReactNode;
  /** The accessible name of the chat region (the locale's "Agent chat" by default). */
  label?: string;
  /** The clock interrupt expiry is measured with, by the dialog and the tool cards alike (the store's `now` by default). */
  now?: () => number;
  /** A transcript to read (a replayed or archived thread): the status and the conversation, without the composer or forms to answer interrupts. */
  readOnly?: boolean;
}

/** What the chat is doing, for styling (`data-state`): `idle`, `running` (a request in flight) or `waiting` (interrupts open). */
export type AgentChatState = 'idle' | 'running' | 'waiting';

/**
 * A complete agent chat, composed of the parts: the run's status, the
 * conversation (streaming messages, tool-call cards, reasoning, subagents),
 * the open interrupts as forms to answer, and the composer. Reads the
 * nearest `AgentProvider`'s store; every part can be used on its own.
 *
 * The root is a `section.agk-chat` named by `label`, focusable from script
 * (`tabIndex={-1}`: where focus goes when nothing nearer can take it), with
 * `data-state` (see `AgentChatState`); the ref, `className`, `style` and
 * other props go to it. It fills the height its parent gives it; given less
 * than its parts need (a small phone, a short window, 200% or 400% zoom), it scrolls
 * vertically as a whole rather than squeezing the conversation to nothing.
 *
 * @example
 * const agent = useAgentRun({ url: '/api/agent' });
 * <AgentProvider store={agent.store}><AgentChat placeholder="Ask about an order" /></AgentProvider>
 */
export const AgentChat = React.forwardRef<HTMLElement, AgentChatProps>(function AgentChat(
  { renderTool, placeholder, sendOn, empty, label, now, readOnly = false, className, ...props },
  ref,
) {
  useAgentStore('<AgentChat>');
  const { messages, lang } = useLocale();
  const agent = useAgentRun();
  const askedId = React.useId();
  const state: AgentChatState = agent.inFlight !== undefined ? 'running' : agent.interrupts.length > 0 ? 'waiting' : 'idle';
  return (
    <section
      ref={ref}
      tabIndex={-1}
      lang={lang}
      {...props}
      className={className ? `agk-chat agk-root ${className}` : 'agk-chat agk-root'}
      aria-label={label ?? props['aria-label'] ?? messages.chat.chatLabel}
      data-state={state}
      {...(readOnly ? { 'data-readonly': 'true' } : {})}
    >
      <ExpiryClock.Provider value={now}>
        <div className="agk-chat__status">
          <RunStatus />
        </div>
        <MessageList {...(renderTool ? { renderTool } : {})} {...(empty !== undefined ? { empty } : {})} />
        {readOnly ? (
          agent.interrupts.length > 0 ? (
            // Under a heading a sighted reader sees too: a list alone reads as a stray bullet under the conversation.
            <section className="agk-chat__asked" aria-labelledby={askedId}>
              <h2 id={askedId} className="agk-chat__asked-title">
                {messages.chat.waitingOn}
              </h2>
              <ul aria-labelledby={askedId}>
                {agent.interrupts.map((it) => (
                  <li key={it.id}>{it.message || <AskedTitle reason={it.reason} />}</li>
                ))}
              </ul>
            </section>
          ) : null
        ) : (
          <>
            <InterruptDialog />
            <div className="agk-chat__composer">
              <Composer {...(placeholder !== undefined ? { placeholder } : {})} {...(sendOn !== undefined ? { sendOn } : {})} />
            </div>
          </>
        )}
      </ExpiryClock.Provider>
    </section>
  );
});

/**
 * An open interrupt that has no message, as the dialog heads it: the title
 * of its kind in the locale's words, and a reason of the agent's own as sent.
 */
function AskedTitle({ reason }: { reason: string }) {
  const t = useLocale().messages.interrupt;
  const kind = reasonKind(reason);
  return (
    <>
      {t.titles[kind]}
      {kind === 'custom' ? (
        <>
          {' '}
          <span className="agk-badge" data-tone="neutral" title={t.reason}>
            {reason}
          </span>
        </>
      ) : null}
    </>
  );
}
