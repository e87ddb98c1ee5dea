'use client';

import type { Diagnostic, RunStatus } from '@aguikit/core';
import { eventType } from './eventSummary.js';
import { JsonTree } from './JsonTree.js';
import { useTimeline } from './timelineContext.js';

const RUN_TONES: Record<RunStatus, string> = {
  idle: 'neutral',
  running: 'info',
  success: 'success',
  interrupted: 'warning',
  cancelled: 'neutral',
  error: 'danger',
  unknown: 'warning',
};

/** Diagnostics in full: severity in words, code and message. */
export function DiagnosticList({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  return (
    <ul className="agk-timeline__diagnostics">
      {diagnostics.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a diagnostic list never reorders, and two diagnostics may be identical.
        <li key={i} data-severity={d.severity}>
          <span className="agk-badge" data-tone={d.severity === 'error' ? 'danger' : 'warning'}>
            {d.severity}
          </span>{' '}
          <code>{d.code}</code> {d.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * The selected event, and the thread as it was right after it (time travel:
 * the log up to that event replayed through the real pipeline): run status,
 * messages, tool calls, open interrupts and the state document.
 */
export function Detail() {
  const { travel, diagnosticsAt, selected } = useTimeline('Detail');
  if (!travel) {
    return (
      <p className="agk-timeline__hint" data-state={selected === undefined ? 'idle' : 'replaying'}>
        {selected === undefined ? 'Select an event to see the thread as it was right after it.' : 'Replaying…'}
      </p>
    );
  }
  const { entry, thread } = travel;
  const diagnostics = diagnosticsAt.get(entry.index);
  const title = `After event #${entry.index} (${eventType(entry.event)})`;
  return (
    <section className="agk-timeline__detail" aria-label={title} data-run={thread.run.status}>
      <h3 className="agk-card__title">{title}</h3>
      <dl className="agk-timeline__facts">
        <dt>Run</dt>
        <dd>
          <span className="agk-badge" data-tone={RUN_TONES[thread.run.status]} data-status={thread.run.status}>
            {thread.run.status}
          </span>
        </dd>
        <dt>Messages</dt>
        <dd data-fact="messages">{thread.messages.ids.length}</dd>
        <dt>Tool calls</dt>
        <dd data-fact="tool-calls">{thread.toolCalls.size}</dd>
        <dt>Open interrupts</dt>
        <dd data-fact="interrupts">{thread.interrupts.length}</dd>
        <dt>State</dt>
        <dd data-fact="sync">{thread.sharedState.sync}</dd>
      </dl>
      {diagnostics ? <DiagnosticList diagnostics={diagnostics} /> : null}
      <p className="agk-label">Event</p>
      <JsonTree label={`Event #${entry.index}`} value={entry.event} expandDepth={1} />
      <p className="agk-label">State document</p>
      <JsonTree label={`State after event #${entry.index}`} value={thread.sharedState.document} highlight={thread.sharedState.lastDelta} />
    </section>
  );
}
