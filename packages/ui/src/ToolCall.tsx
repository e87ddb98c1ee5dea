'use client';

import type { ContentPart, ToolCallRecord, ToolCallStatus } from '@aguikit/core';
import { useToolCall } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { pretty, useArgsView } from './partialArgs.js';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** What a call's badge says: its status, or that a human decision is awaited. */
export type ToolDisplayStatus = ToolCallStatus | 'awaiting_decision';

const LABELS: Record<ToolDisplayStatus, [string, Tone]> = {
  declared: ['Declared', 'neutral'],
  args_streaming: ['Receiving arguments', 'info'],
  ready: ['Ready', 'neutral'],
  executing: ['Running', 'info'],
  succeeded: ['Succeeded', 'success'],
  failed: ['Failed', 'danger'],
  // Answered on its interrupt: rejected (a resolved answer with `approved: false`), or cancelled.
  denied: ['Rejected', 'warning'],
  cancelled: ['Cancelled', 'neutral'],
  awaiting_decision: ['Waiting for your decision', 'warning'],
};

/** The status a call shows: an open interrupt waiting on it wins over `ready`. */
export function toolDisplayStatus(call: Pick<ToolCallRecord, 'status' | 'interruptId'>): ToolDisplayStatus {
  return call.interruptId !== undefined && (call.status === 'ready' || call.status === 'executing') ? 'awaiting_decision' : call.status;
}

/**
 * The status of a tool call in words (never color alone), as
 * `data-status`, for every state of the lifecycle
 * `declared -> args_streaming -> ready -> executing -> succeeded | failed`,
 * plus "Waiting for your decision" while an interrupt holds it, and
 * "Rejected" (`denied`) or "Cancelled" once that interrupt was answered so.
 *
 * @example
 * <ToolStatusBadge status="awaiting_decision" />
 */
export function ToolStatusBadge({ status }: { status: ToolDisplayStatus }) {
  const [label, tone] = LABELS[status];
  return (
    <span className="agk-badge agk-root" data-tone={tone} data-status={status}>
      {label}
    </span>
  );
}

const CallContext = clientContext<ToolCallRecord | null>(null);

function useCall(part: string): ToolCallRecord {
  const call = React.useContext(CallContext);
  if (!call) throw new Error(`ToolCall.${part} must be used within <ToolCall.Root>.`);
  return call;
}

/** Renders a custom card for a call (generative UI), or undefined for the default card. */
export type RenderTool = (call: ToolCallRecord) => ReactNode | undefined;

/**
 * Builds a `renderTool` from a map of tool name to renderer.
 *
 * @example
 * const renderTool = toolRenderers({ get_weather: (call) => <Weather args={call.args} /> });
 */
export function toolRenderers(map: Record<string, (call: ToolCallRecord) => ReactNode>): RenderTool {
  return (call) => (Object.hasOwn(map, call.name) ? map[call.name]?.(call) : undefined);
}

function Root({ id, children, labelledBy }: { id: string; children: ReactNode; labelledBy?: string }) {
  const call = useToolCall(id);
  if (!call) return null;
  return (
    <CallContext.Provider value={call}>
      <article
        className="agk-card agk-toolcall agk-root"
        data-status={toolDisplayStatus(call)}
        aria-labelledby={labelledBy}
        data-tool={call.name}
      >
        {children}
      </article>
    </CallContext.Provider>
  );
}

function Header({ titleId }: { titleId?: string }) {
  const call = useCall('Header');
  return (
    <header className="agk-card__header">
      <h3 className="agk-card__title" id={titleId}>
        {call.name || 'tool'}
      </h3>
      <ToolStatusBadge status={toolDisplayStatus(call)} />
    </header>
  );
}

function Args() {
  const call = useCall('Args');
  const view = useArgsView(call);
  if (view.kind === 'empty') return null;
  return (
    <div className="agk-toolcall__section">
      <p className="agk-label">Arguments{view.kind === 'parsed' && view.partial ? ' (streaming)' : ''}</p>
      <pre className="agk-code" data-partial={view.kind === 'parsed' && view.partial ? 'true' : 'false'}>
        {view.kind === 'parsed' ? pretty(view.value) : view.text}
      </pre>
      {view.kind === 'raw' && view.error ? <p className="agk-error-text">{view.error}</p> : null}
    </div>
  );
}

function contentText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return prettyIfJson(content);
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

function Result() {
  const call = useCall('Result');
  if (call.result?.error !== undefined || call.failure !== undefined) {
    return (
      <div className="agk-toolcall__section">
        <p className="agk-label">Error</p>
        <p className="agk-error-text">{call.result?.error ?? call.failure}</p>
      </div>
    );
  }
  if (!call.result) return null;
  return (
    <div className="agk-toolcall__section">
      <p className="agk-label">Result</p>
      <pre className="agk-code">{contentText(call.result.content)}</pre>
    </div>
  );
}

/** A result that is JSON is shown like the arguments, indented; anything else as it came. */
function prettyIfJson(text: string): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  try {
    return pretty(JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/** The parts of a tool-call card, to compose a card of your own. */
export const ToolCall = { Root, Header, Args, Result };

/**
 * A tool call as a card: name, status badge, arguments while they stream
 * (leniently parsed, never a crash on incomplete JSON), and the result or the
 * error. A `renderTool` that returns something replaces the card.
 *
 * @example
 * <ToolCallCard id={toolCallId} />
 */
export function ToolCallCard({ id, renderTool }: { id: string; renderTool?: RenderTool }) {
  const call = useToolCall(id);
  const titleId = React.useId();
  const custom = call && renderTool ? renderTool(call) : undefined;
  if (custom !== undefined) return <>{custom}</>;
  return (
    <Root id={id} labelledBy={titleId}>
      <Header titleId={titleId} />
      <Args />
      <Result />
    </Root>
  );
}
