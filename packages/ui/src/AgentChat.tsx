'use client';

import type { ReactNode } from 'react';
import { Composer } from './Composer.js';
import { InterruptDialog } from './InterruptDialog.js';
import { useLocale } from './locale.js';
import { MessageList } from './Messages.js';
import { RunStatus } from './RunStatus.js';
import type { RenderTool } from './ToolCall.js';

export interface AgentChatProps {
  /** Custom cards for tool calls (generative UI); keep it stable (module scope or `useCallback`). */
  renderTool?: RenderTool;
  /** The composer's placeholder. */
  placeholder?: string;
  /** Which key sends a message: Enter (Shift+Enter for a new line), or Ctrl/Cmd+Enter (Enter for a new line). */
  sendOn?: 'enter' | 'mod-enter';
  /** Shown while the thread has no messages. */
  empty?: ReactNode;
  /** The accessible name of the chat region. */
  label?: string;
  /** The clock interrupt expiry is measured with (the store's `now`, if it has one). */
  now?: () => number;
}

/**
 * A complete agent chat, composed of the parts: the run's status, the
 * conversation (streaming messages, tool-call cards, reasoning, subagents),
 * the open interrupts as forms to answer, and the composer. Reads the
 * nearest `AgentProvider`'s store; every part can be used on its own.
 *
 * @example
 * const agent = useAgentRun({ url: '/api/agent' });
 * <AgentProvider store={agent.store}><AgentChat placeholder="Ask about an order" /></AgentProvider>
 */
export function AgentChat({ renderTool, placeholder, sendOn, empty, label, now }: AgentChatProps) {
  const { messages, lang } = useLocale();
  return (
    <section className="agk-chat agk-root" aria-label={label ?? messages.chat.chatLabel} lang={lang}>
      <div className="agk-chat__status">
        <RunStatus />
      </div>
      <MessageList {...(renderTool ? { renderTool } : {})} {...(empty !== undefined ? { empty } : {})} />
      <InterruptDialog {...(now ? { now } : {})} />
      <div className="agk-chat__composer">
        <Composer {...(placeholder !== undefined ? { placeholder } : {})} {...(sendOn !== undefined ? { sendOn } : {})} />
      </div>
    </section>
  );
}
