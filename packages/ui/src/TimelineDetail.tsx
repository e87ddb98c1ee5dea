'use client';

import type { Diagnostic, LoggedEvent, RunStatus } from '@aguikit/core';
import { useAgentStore } from '@aguikit/react';
import * as React from 'react';
import { isDatable } from './dates.js';
import { type EventSummary, eventType, type IdRole } from './eventSummary.js';
import { JsonTree } from './JsonTree.js';
import { useLocale } from './locale.js';
import { rowOf, useTimeline } from './timelineContext.js';
import { ownDelta } from './timeTravel.js';
import { useMomentText } from './useHydrated.js';

const RUN_TONES: Record<RunStatus, string> = {
  idle: 'neutral',
  running: 'info',
  success: 'success',
  interrupted: 'warning',
  cancelled: 'neutral',
  error: 'danger',
  unknown: 'warning',
};

/** Diagnostics in full: severity in words, code and message (the engine's, in English). */
export function DiagnosticList({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  const { messages } = useLocale();
  return (
    <ul className="agk-timeline__diagnostics">
      {diagnostics.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a diagnostic list never reorders, and two diagnostics may be identical.
        <li key={i} data-severity={d.severity}>
          <span className="agk-badge" data-tone={d.severity === 'error' ? 'danger' : 'warning'}>
            {messages.devtools.detail.severity[d.severity]}
          </span>{' '}
          <code>{d.code}</code> <span lang="en">{d.message}</span>
        </li>
      ))}
    </ul>
  );
}

/** The ids an event names, in full. */
function idsOf(summary: EventSummary): { role: IdRole; id: string }[] {
  return summary.meta.flatMap((part) => (part.kind === 'id' ? [{ role: part.role, id: part.id }] : []));
}

const sizes = new WeakMap<LoggedEvent, number | undefined>();

/** The size of an event as JSON, in bytes (UTF-8); `undefined` for what JSON cannot hold. Worked out once per event: a snapshot may be large. */
function byteSize(entry: LoggedEvent): number | undefined {
  if (sizes.has(entry)) return sizes.get(entry);
  let size: number | undefined;
  try {
    const json = JSON.stringify(entry.event);
    size = json === undefined ? undefined : new TextEncoder().encode(json).length;
  } catch {
    size = undefined;
  }
  sizes.set(entry, size);
  return size;
}

export interface DetailProps extends React.HTMLAttributes<HTMLElement> {
  /** Level of the detail's heading. Default 2. */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * The selected event, and the thread as it was right after it (time travel:
 * the log up to that event replayed through the real pipeline): run status,
 * messages, tool calls, open interrupts, the event's ids in full and the
 * state document. `data-state="idle" | "replaying" | "ready"`.
 */
export const Detail = React.forwardRef<HTMLElement, DetailProps>(function Detail({ headingLevel = 2, className, ...rest }, ref) {
  const { travel, diagnosticsAt, selected, toolNames } = useTimeline('Detail');
  const { messages, format, lang } = useLocale();
  // Today's events by their time, an earlier day's with their date, both to the second (by the store's clock, which timed them).
  const time = useMomentText(format, lang, useAgentStore().now, 'second');
  const strings = messages.devtools.detail;
  const classes = (own: string) => (className ? `${own} ${className}` : own);
  if (!travel) {
    const state = selected === undefined ? 'idle' : 'replaying';
    return (
      <section {...rest} ref={ref} className={classes('agk-timeline__detail agk-timeline__hint')} data-state={state}>
        {selected === undefined ? messages.devtools.timeline.selectHint : messages.devtools.timeline.replaying}
      </section>
    );
  }
  const { entry, thread } = travel;
  const diagnostics = diagnosticsAt.get(entry.index);
  const index = String(entry.index);
  const type = eventType(entry.event);
  const title = strings.title(index, type);
  const Heading = `h${headingLevel}` as const;
  const ids = idsOf(rowOf(entry, toolNames).summary);
  const size = byteSize(entry);
  return (
    <section
      {...rest}
      ref={ref}
      className={classes('agk-timeline__detail')}
      aria-label={title}
      data-state="ready"
      data-run={thread.run.status}
    >
      <Heading className="agk-timeline__detail-title">{title}</Heading>
      <dl className="agk-timeline__facts">
        <dt>{strings.run}</dt>
        <dd data-fact="run">
          <span className="agk-badge" data-tone={RUN_TONES[thread.run.status]} data-status={thread.run.status}>
            {strings.runStatus[thread.run.status]}
          </span>
        </dd>
        <dt>{strings.messages}</dt>
        <dd data-fact="messages">{format.number(thread.messages.ids.length)}</dd>
        <dt>{strings.toolCalls}</dt>
        <dd data-fact="tool-calls">{format.number(thread.toolCalls.size)}</dd>
        <dt>{strings.interrupts}</dt>
        <dd data-fact="interrupts">{format.number(thread.interrupts.length)}</dd>
        <dt>{strings.state}</dt>
        <dd data-fact="sync" data-sync={thread.sharedState.sync}>
          {strings.sync[thread.sharedState.sync]}
        </dd>
        {!isDatable(entry.receivedAt) ? null : (
          <>
            <dt>{strings.received}</dt>
            <dd data-fact="received">
              <time dateTime={new Date(entry.receivedAt).toISOString()}>{time(entry.receivedAt)}</time>
            </dd>
          </>
        )}
        {size === undefined ? null : (
          <>
            <dt>{strings.size}</dt>
            <dd data-fact="size">{format.bytes(size)}</dd>
          </>
        )}
      </dl>
      {ids.length ? (
        <dl className="agk-timeline__ids" aria-label={strings.ids}>
          {ids.map(({ role, id }) => (
            <React.Fragment key={`${role}:${id}`}>
              <dt>{messages.devtools.summary.idRoles[role]}</dt>
              <dd>
                <code className="agk-devtools__id-value">{id}</code>
              </dd>
            </React.Fragment>
          ))}
        </dl>
      ) : null}
      {diagnostics ? <DiagnosticList diagnostics={diagnostics} /> : null}
      <p className="agk-label">{strings.event}</p>
      <JsonTree label={strings.eventTree(index)} value={entry.event} expandDepth={1} />
      <p className="agk-label">{strings.stateDocument}</p>
      <JsonTree
        label={strings.stateTree(index)}
        value={thread.sharedState.document}
        highlight={ownDelta(entry, thread.sharedState.lastDelta)}
      />
    </section>
  );
});
