'use client';

import type { RunStatus as RunStatusValue } from '@aguikit/core';
import { useAgentRun, useAgentSelector } from '@aguikit/react';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const LABELS: Record<RunStatusValue, [string, Tone]> = {
  idle: ['Idle', 'neutral'],
  running: ['Running', 'info'],
  success: ['Done', 'success'],
  interrupted: ['Waiting for you', 'warning'],
  cancelled: ['Stopped', 'neutral'],
  error: ['Failed', 'danger'],
  unknown: ['Connection lost', 'warning'],
};

const selectStep = (s: { thread: { run: { steps: readonly string[] } } }) => s.thread.run.steps.at(-1);
const selectRunError = (s: { thread: { run: { error?: { message: string; code?: string } } } }) => s.thread.run.error;

/**
 * The run as a person needs it: idle, running (with the current step),
 * done, waiting for an answer, stopped, failed (with the agent's code and
 * message), or connection lost (status `unknown`: the stream ended without a
 * terminal event) with a Reconnect action. A polite live region, with
 * `data-status` and `data-connection`.
 *
 * @example
 * <RunStatus />
 */
export function RunStatus() {
  const agent = useAgentRun();
  const step = useAgentSelector(selectStep);
  const runError = useAgentSelector(selectRunError);
  const [label, tone] = LABELS[agent.status];
  const reconnecting = agent.connection === 'reconnecting' || agent.connection === 'connecting';
  return (
    <div className="agk-runstatus agk-root" role="status" aria-live="polite" data-status={agent.status} data-connection={agent.connection}>
      <span className="agk-badge" data-tone={tone}>
        {agent.connection === 'reconnecting' ? 'Reconnecting…' : label}
      </span>
      {agent.status === 'running' && step ? <span className="agk-runstatus__detail">Step: {step}</span> : null}
      {agent.status === 'error' && runError ? (
        <span className="agk-runstatus__detail agk-error-text">
          {runError.code ? <code>{runError.code}</code> : null} {runError.message}
        </span>
      ) : null}
      {agent.status === 'unknown' ? (
        <>
          <span className="agk-runstatus__detail">
            The stream ended before the run finished{agent.failure ? `: ${agent.failure.message}` : ''}.
          </span>
          <button type="button" className="agk-button" disabled={reconnecting} onClick={() => void agent.reconnect()}>
            Reconnect
          </button>
        </>
      ) : null}
      {agent.refusal && agent.refusal.code === 'NO_RESUME_POINT' ? (
        <span className="agk-runstatus__detail">{agent.refusal.message}</span>
      ) : null}
    </div>
  );
}
