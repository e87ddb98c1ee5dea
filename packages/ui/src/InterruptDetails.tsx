'use client';

import { useToolCall } from '@aguikit/react';
import { Countdown } from './Countdown.js';
import { useInterruptRoot } from './interruptContext.js';
import { metadataText, REASON_TITLES } from './interruptForm.js';
import { pretty, useArgsView } from './partialArgs.js';

/** The `Interrupt.Header` part: see `Interrupt`. */
export function InterruptHeader() {
  const { kind, interrupt, ids } = useInterruptRoot('Header');
  return (
    <header className="agk-interrupt__header">
      <h3 className="agk-interrupt__title" id={ids.title}>
        {REASON_TITLES[kind]}
      </h3>
      {kind === 'custom' ? (
        <span className="agk-badge agk-interrupt__reason" data-tone="neutral">
          {interrupt.reason}
        </span>
      ) : null}
      <Countdown />
    </header>
  );
}

function ToolFacts({ toolCallId }: { toolCallId: string }) {
  const call = useToolCall(toolCallId);
  const view = useArgsView(call);
  return (
    <>
      <div className="agk-interrupt__fact">
        <dt>Tool</dt>
        <dd>
          <code className="agk-interrupt__tool">{call ? call.name : `unknown call ${toolCallId}`}</code>
        </dd>
      </div>
      {view.kind === 'empty' ? null : (
        <div className="agk-interrupt__fact" data-wide="true">
          <dt>Arguments</dt>
          <dd>
            <pre className="agk-code">{view.kind === 'parsed' ? pretty(view.value) : view.text}</pre>
          </dd>
        </div>
      )}
    </>
  );
}

/** The `Interrupt.Context` part: see `Interrupt`. */
export function InterruptDetails() {
  const { interrupt, ids } = useInterruptRoot('Context');
  const metadata = Object.entries(interrupt.metadata ?? {});
  const hasFacts = interrupt.toolCallId !== undefined || metadata.length > 0;
  return (
    <div className="agk-interrupt__context">
      {interrupt.message ? (
        <p className="agk-interrupt__message" id={ids.message}>
          {interrupt.message}
        </p>
      ) : null}
      {hasFacts ? (
        <dl className="agk-interrupt__facts">
          {interrupt.toolCallId !== undefined ? <ToolFacts toolCallId={interrupt.toolCallId} /> : null}
          {metadata.map(([key, value]) => (
            <div className="agk-interrupt__fact" key={key}>
              <dt>{key}</dt>
              <dd>{metadataText(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
