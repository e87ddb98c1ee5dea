'use client';

import { useAgentRun } from '@aguikit/react';
import type { FormEvent, KeyboardEvent } from 'react';
import * as React from 'react';

export interface ComposerProps {
  placeholder?: string;
  /** The visible label of the input (also its accessible name). */
  label?: string;
}

/**
 * The user's input: type, send with Enter (Shift+Enter for a new line), stop
 * the run in flight. Sending is refused while a run is in flight or
 * interrupts are open — the reason is shown, and the text is kept.
 *
 * @example
 * <Composer placeholder="Ask about an order" />
 */
export function Composer({ placeholder = 'Message the agent', label = 'Message' }: ComposerProps) {
  const agent = useAgentRun();
  const [text, setText] = React.useState('');
  const inputId = React.useId();
  const noteId = React.useId();
  const busy = agent.inFlight !== undefined;
  const waiting = agent.interrupts.length > 0;
  const send = async () => {
    const message = text.trim();
    if (!message || busy || waiting) return;
    const result = await agent.run(message);
    if (result.ok) setText('');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  const note = waiting
    ? 'The agent is waiting for your answer above before it can take a new message.'
    : agent.refusal?.code === 'RUN_IN_PROGRESS'
      ? agent.refusal.message
      : undefined;
  return (
    <form className="agk-composer agk-root" onSubmit={onSubmit} data-state={busy ? 'busy' : waiting ? 'waiting' : 'ready'}>
      <label htmlFor={inputId} className="agk-label">
        {label}
      </label>
      <div className="agk-composer__row">
        <textarea
          id={inputId}
          className="agk-composer__input"
          value={text}
          placeholder={placeholder}
          rows={2}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={note ? noteId : undefined}
        />
        {busy && agent.inFlight === 'run' ? (
          <button type="button" className="agk-button" data-variant="danger" onClick={agent.stop}>
            Stop
          </button>
        ) : (
          <button type="submit" className="agk-button" data-variant="primary" disabled={busy || waiting || text.trim() === ''}>
            Send
          </button>
        )}
      </div>
      {note ? (
        <p id={noteId} className="agk-composer__note">
          {note}
        </p>
      ) : null}
    </form>
  );
}
