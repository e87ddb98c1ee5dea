'use client';

import type { ContentPart, ThreadState, ToolCallFailureCode, ToolCallRecord, ToolCallStatus } from '@aguikit/core';
import { useAgentSelector, useAgentStore, useRunSummary, useToolCall } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { useExpiry, useExpiryClock } from './Countdown.js';
import { clientContext } from './clientContext.js';
import { isolated } from './isolated.js';
import { CodeText } from './LongText.js';
import { type LocaleValue, useLocale } from './locale.js';
import type { en as toolStrings } from './locales/tools.js';
import { type ArgsView, readsAsSent, shownJson, useArgsShown, useArgsView } from './partialArgs.js';
import { clip, textHead } from './textCut.js';
import { type PartPresence, usePartPresence, useRegisterPart } from './usePartPresence.js';
import { useThreadKey } from './useStoreSwitch.js';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
type ToolStrings = typeof toolStrings;

/**
 * What a call's badge says: its status, that a human decision is awaited, that the time to decide ran out
 * (`expired`), or that it was approved and its result is awaited.
 */
export type ToolDisplayStatus = ToolCallStatus | 'awaiting_decision' | 'expired' | 'approved';

const TONES: Record<ToolDisplayStatus, Tone> = {
  declared: 'neutral',
  args_streaming: 'info',
  ready: 'neutral',
  executing: 'info',
  succeeded: 'success',
  failed: 'danger',
  // Answered on its interrupt: rejected (a resolved answer with `approved: false`), or cancelled.
  denied: 'warning',
  cancelled: 'neutral',
  awaiting_decision: 'warning',
  // Its interrupt's deadline passed unanswered: nothing more can happen to it until the agent asks again.
  expired: 'neutral',
  approved: 'info',
};

const cx = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

/**
 * The status a call shows: an open interrupt waiting on it wins over `ready`,
 * and a call the human rejected or cancelled shows that decision even when
 * the agent then reported a result (an agent acknowledging the answer:
 * "refund not issued"). The result itself stays in the card; a result that
 * is an error shows as failed. `decisionExpired`: the interrupt waiting on
 * the call is past its `expiresAt` (it can no longer be answered), which
 * `ToolCall.Root` reads from the store's clock.
 */
export function toolDisplayStatus(
  call: Pick<ToolCallRecord, 'status' | 'interruptId' | 'answer'>,
  decisionExpired = false,
): ToolDisplayStatus {
  if (call.interruptId !== undefined && (call.status === 'ready' || call.status === 'executing')) {
    return decisionExpired ? 'expired' : 'awaiting_decision';
  }
  const answer = call.answer;
  // Approved, and the agent has not reported what the call did yet: "Ready" would read as if nothing happened.
  if (
    call.status === 'ready' &&
    answer?.status === 'resolved' &&
    (answer.payload as { approved?: unknown } | undefined)?.approved === true
  ) {
    return 'approved';
  }
  if (call.status === 'succeeded' && answer) {
    if (answer.status === 'cancelled') return 'cancelled';
    if ((answer.payload as { approved?: unknown } | undefined)?.approved === false) return 'denied';
  }
  return call.status;
}

/**
 * A card opens by itself while it needs the reader: a decision is awaited on it (and stays open when the time
 * for it runs out, rather than folding under the reader's eyes), or it failed.
 */
function opensByItself(status: ToolDisplayStatus): boolean {
  return status === 'awaiting_decision' || status === 'expired' || status === 'failed';
}

/** Props of `ToolStatusBadge`: the status, and any prop of a `span`. */
export interface ToolStatusBadgeProps extends React.HTMLAttributes<HTMLSpanElement> {
  status: ToolDisplayStatus;
}

/**
 * The status of a tool call in words (never color alone), as
 * `data-status` and `data-state`, for every state of the lifecycle
 * `declared -> args_streaming -> ready -> executing -> succeeded | failed`,
 * plus "Waiting for your decision" while an interrupt holds it, "Expired" once
 * that interrupt's deadline passed unanswered, "Approved"
 * once it was approved and until its result comes, and "Rejected"
 * (`denied`) or "Cancelled" once that interrupt was answered so.
 *
 * @example
 * <ToolStatusBadge status="awaiting_decision" />
 */
export const ToolStatusBadge = React.forwardRef<HTMLSpanElement, ToolStatusBadgeProps>(function ToolStatusBadge(
  { status, className, ...rest },
  ref,
) {
  const { messages } = useLocale();
  return (
    <span
      {...rest}
      ref={ref}
      className={cx('agk-badge agk-root', className)}
      data-tone={TONES[status]}
      data-status={status}
      data-state={status}
    >
      {messages.tools.status[status]}
    </span>
  );
});

interface CallContextValue {
  call: ToolCallRecord;
  status: ToolDisplayStatus;
  open: boolean;
  setOpen: (open: boolean) => void;
  ids: { trigger: string; panel: string; badge: string };
  /** Its place among the thread's calls of the same tool, when there are several (0 otherwise). */
  place: number;
  /** The Header registers here: the card is named by its button and badge, or, without one, by a label of its own. */
  header: PartPresence;
}

const CallContext = clientContext<CallContextValue | null>(null);

function useCall(part: string): CallContextValue {
  const value = React.useContext(CallContext);
  if (!value) throw new Error(`ToolCall.${part} must be used within <ToolCall.Root>.`);
  return value;
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

/** For each call key of a thread, its place among the calls of the same tool: [n, of]. Computed once per `toolCalls`. */
const ordinalCache = new WeakMap<object, Map<string, readonly [number, number]>>();

function ordinals(thread: ThreadState): Map<string, readonly [number, number]> {
  const cached = ordinalCache.get(thread.toolCalls);
  if (cached) return cached;
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const id of thread.messages.ids) {
    for (const key of thread.messages.byId.get(id)?.toolCallIds ?? []) {
      if (!seen.has(key)) keys.push(key);
      seen.add(key);
    }
  }
  const byName = new Map<string, string[]>();
  for (const key of keys) {
    const name = thread.toolCalls.get(key)?.name ?? '';
    const list = byName.get(name);
    if (list) list.push(key);
    else byName.set(name, [key]);
  }
  const out = new Map<string, readonly [number, number]>();
  for (const list of byName.values()) {
    list.forEach((key, i) => {
      out.set(key, [i + 1, list.length]);
    });
  }
  ordinalCache.set(thread.toolCalls, out);
  return out;
}

/** A call's place among the thread's calls of the same tool, when the thread calls it more than once (0 otherwise). */
function useCallPlace(id: string): number {
  return useAgentSelector((s) => {
    const found = ordinals(s.thread).get(id);
    return found && found[1] > 1 ? found[0] : 0;
  });
}

/**
 * The accessible name of a call: its tool's name, numbered when the thread
 * calls that tool more than once ("get_weather (2)"), so repeated calls are
 * told apart.
 */
function callName({ messages, format }: LocaleValue, name: string, place: number): React.ReactNode {
  const base = name || messages.tools.unnamed;
  return place ? isolated((text) => messages.tools.nth(text, format.number(place)), base) : base;
}

/** The same name as text, for a label. */
function callNameText({ messages, format }: LocaleValue, name: string, place: number): string {
  const base = name || messages.tools.unnamed;
  return place ? messages.tools.nth(base, format.number(place)) : base;
}

const SUMMARY_LENGTH = 60;

/**
 * A one-line summary of the arguments: `key: value` pairs, shortened. Each
 * key and value is the agent's text, set side by side with the others, so
 * each sits in a `<bdi>`: a right-to-left override in one (U+202E) cannot
 * reorder the keys and amounts after it, and the line reads in the order the
 * arguments hold. Its text is the pairs joined by commas, cut at
 * `SUMMARY_LENGTH` characters. Complete arguments that do not read as sent
 * (`readsAsSent`: `1e309` would read Infinity, a 20-digit account rounded)
 * are summed up as sent, as the card shows them.
 */
function argsSummary(view: ArgsView, text: string): React.ReactNode {
  if (view.kind === 'empty') return null;
  if (view.kind === 'raw') return clip(view.text.replace(/\s+/g, ' '), SUMMARY_LENGTH);
  if (!view.partial && !view.incomplete && !readsAsSent(view.value, text))
    return <bdi>{clip(text.slice(0, 4 * SUMMARY_LENGTH).replace(/\s+/g, ' '), SUMMARY_LENGTH)}</bdi>;
  const value = view.value;
  if (value === null || typeof value !== 'object') return clip(String(value), SUMMARY_LENGTH);
  // The line's pieces: the agent's own (a key, a value) and the punctuation between them.
  const pieces: Array<{ text: string; agents: boolean }> = [];
  Object.entries(value as Record<string, unknown>).forEach(([key, v], i) => {
    if (i) pieces.push({ text: ', ', agents: false });
    pieces.push({ text: key, agents: true }, { text: ': ', agents: false }, { text: scalar(v), agents: true });
  });
  const length = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  if (length === 0) return null;
  let room = length > SUMMARY_LENGTH ? SUMMARY_LENGTH - 1 : length;
  const nodes: React.ReactNode[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (room <= 0) break;
    const text = textHead(piece.text, room);
    room -= piece.text.length;
    nodes.push(piece.agents ? <bdi key={i}>{text}</bdi> : text);
  }
  if (length > SUMMARY_LENGTH) nodes.push('…');
  return nodes;
}

function scalar(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? '[…]' : '{…}';
}

/** Props of `ToolCall.Root`: the call, its open state (controlled or not), and any prop of an `article`. */
export interface ToolCallRootProps extends React.HTMLAttributes<HTMLElement> {
  /** The call's key in the thread (its id). */
  id: string;
  /** Controlled open state; leave undefined to let the card keep its own. */
  open?: boolean | undefined;
  /**
   * Initial open state when uncontrolled. Undefined (the default): closed,
   * except while a decision is awaited on the call or once it failed, when the
   * card opens by itself; a reader's toggle then sticks.
   */
  defaultOpen?: boolean | undefined;
  onOpenChange?: ((open: boolean) => void) | undefined;
}

const Root = React.forwardRef<HTMLElement, ToolCallRootProps>(function ToolCallRoot(
  { id, open, defaultOpen, onOpenChange, className, children, ...rest },
  ref,
) {
  const store = useAgentStore('<ToolCall.Root>');
  const call = useToolCall(id);
  // The deadline of the open interrupt waiting on this call, read against the dialog's clock.
  const interruptId = call?.interruptId;
  const expiresAt = useAgentSelector((s) =>
    interruptId === undefined ? undefined : s.thread.interrupts.find((it) => it.id === interruptId)?.expiresAt,
  );
  const expiry = useExpiry(expiresAt, useExpiryClock(store));
  // What the reader chose is the thread's: another thread, or a reset, shows its call under the same id as a fresh mount would.
  const thread = useThreadKey();
  const [choice, setChoice] = React.useState<{ thread: string; open: boolean | undefined }>({ thread, open: defaultOpen });
  const chosen = choice.thread === thread ? choice.open : defaultOpen;
  const trigger = React.useId();
  const panel = React.useId();
  const badge = React.useId();
  const place = useCallPlace(id);
  const header = usePartPresence();
  const locale = useLocale();
  const setOpen = React.useCallback(
    (next: boolean) => {
      if (open === undefined) setChoice({ thread, open: next });
      onOpenChange?.(next);
    },
    [open, onOpenChange, thread],
  );
  if (!call) return null;
  const status = toolDisplayStatus(call, expiry.state === 'expired');
  const isOpen = open ?? chosen ?? opensByItself(status);
  // Named by its Header's button and badge; without a Header, by the same words as its own label. A name the app gives wins.
  const named = rest['aria-label'] !== undefined || rest['aria-labelledby'] !== undefined;
  return (
    <CallContext.Provider value={{ call, status, open: isOpen, setOpen, ids: { trigger, panel, badge }, place, header }}>
      <article
        {...(named
          ? {}
          : header.present
            ? { 'aria-labelledby': `${trigger} ${badge}` }
            : { 'aria-label': `${callNameText(locale, call.name, place)} ${locale.messages.tools.status[status]}` })}
        {...rest}
        ref={ref}
        className={cx('agk-card agk-toolcall agk-root', className)}
        data-status={status}
        data-state={status}
        data-tool={call.name}
      >
        {children}
      </article>
    </CallContext.Provider>
  );
});

const Header = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function ToolCallHeader({ className, ...rest }, ref) {
  const { call, status, open, setOpen, ids, place, header } = useCall('Header');
  useRegisterPart(header);
  const name = callName(useLocale(), call.name, place);
  const summary = argsSummary(useArgsView(call), call.argsText);
  const state = open ? 'open' : 'closed';
  return (
    <div {...rest} ref={ref} className={cx('agk-card__header agk-toolcall__header', className)}>
      <button
        type="button"
        id={ids.trigger}
        className="agk-toolcall__trigger"
        aria-expanded={open}
        aria-controls={ids.panel}
        data-state={state}
        onClick={() => setOpen(!open)}
      >
        <span className="agk-chevron" aria-hidden="true" />
        <span className="agk-toolcall__name">{name}</span>
      </button>
      {/* The summary and the badge wrap as one: the badge's words, which change with the status, never move a row. */}
      <span className="agk-toolcall__meta">
        {summary ? (
          <span className="agk-toolcall__summary" aria-hidden="true">
            {summary}
          </span>
        ) : null}
        <ToolStatusBadge id={ids.badge} status={status} />
      </span>
    </div>
  );
});

const Panel = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function ToolCallPanel(
  { className, children, ...rest },
  ref,
) {
  const { open, ids } = useCall('Panel');
  return (
    <div
      {...rest}
      ref={ref}
      id={ids.panel}
      className={cx('agk-toolcall__panel', className)}
      hidden={!open}
      data-state={open ? 'open' : 'closed'}
    >
      {children ?? (
        <>
          <Args />
          <Result />
        </>
      )}
    </div>
  );
});

const Args = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function ToolCallArgs({ className, ...rest }, ref) {
  const { call } = useCall('Args');
  const { messages } = useLocale();
  const view = useArgsView(call);
  const partial = view.kind === 'parsed' && view.partial;
  const shown = useArgsShown(view, call?.argsText ?? '');
  const label =
    view.kind === 'parsed' && view.incomplete
      ? messages.tools.argumentsIncomplete
      : partial
        ? messages.tools.argumentsStreaming
        : messages.tools.arguments;
  return (
    <div {...rest} ref={ref} className={cx('agk-toolcall__section', className)}>
      <p className="agk-label">{label}</p>
      {view.kind === 'empty' ? (
        <p className="agk-toolcall__empty">{messages.tools.noArguments}</p>
      ) : (
        // As long as a result can be (a `write_file` call carries the whole file): cut the same way past LONG_TEXT.
        <CodeText text={shown} data-partial={partial ? 'true' : 'false'} />
      )}
      {view.kind === 'raw' && view.error !== undefined ? (
        <p className="agk-error-text">
          {view.code === 'TOO_DEEP' ? (
            messages.tools.argumentsTooDeep
          ) : (
            <>
              {messages.tools.argumentsNotJson} <span lang="en">{view.error}</span>
            </>
          )}
        </p>
      ) : null}
    </div>
  );
});

function resultText(content: string | readonly ContentPart[], strings: ToolStrings): string {
  if (typeof content === 'string') return prettyIfJson(content);
  return content.map((part) => (part.type === 'text' ? part.text : strings.contentPart(part.type))).join('\n');
}

/**
 * Why a call failed, said once and in the reader's language, from its typed
 * code (the record's `failure` is English, for logs): when its run ended
 * before it returned, the run's own error is the run status's to show, and
 * the card says only that.
 */
function failureText(code: ToolCallFailureCode | undefined, runStatus: string | undefined, strings: ToolStrings): string {
  if (runStatus === 'error' || runStatus === 'cancelled' || runStatus === 'unknown') return strings.endedWithRun[runStatus];
  if (code === 'ARGS_INCOMPLETE') return strings.argsIncomplete;
  if (code === 'STOPPED') return strings.endedWithRun.cancelled;
  if (code === 'RUN_FAILED') return strings.endedWithRun.error;
  return strings.failedPlain;
}

const Result = React.forwardRef<HTMLDivElement, React.HTMLAttributes<HTMLDivElement>>(function ToolCallResult({ className, ...rest }, ref) {
  const { call } = useCall('Result');
  const { messages } = useLocale();
  const runStatus = useRunSummary(call.runId)?.status;
  // A megabyte of JSON is read and written again once per result, not at each render of its card.
  const content = call.result?.content;
  const shown = React.useMemo(() => (content === undefined ? '' : resultText(content, messages.tools)), [content, messages.tools]);
  const error =
    call.result?.error ??
    (call.failure === undefined && call.failureCode === undefined ? undefined : failureText(call.failureCode, runStatus, messages.tools));
  if (error !== undefined) {
    return (
      <div {...rest} ref={ref} className={cx('agk-toolcall__section', className)} data-result="error">
        <p className="agk-label">{messages.tools.error}</p>
        <p className="agk-error-text">{error}</p>
      </div>
    );
  }
  if (!call.result) return null;
  return (
    <div {...rest} ref={ref} className={cx('agk-toolcall__section', className)} data-result="content">
      <p className="agk-label">{messages.tools.result}</p>
      <CodeText text={shown} />
    </div>
  );
});

/**
 * A result that is JSON is shown like the arguments (`shownJson`): indented,
 * or as it came where reading it would change a value; anything else as it came.
 */
function prettyIfJson(text: string): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return shownJson(value, text);
}

/**
 * The parts of a tool-call card, to compose a card of your own: `Root` (the
 * `article`, with the open state), `Header` (the disclosure button named
 * after the tool, a one-line argument summary, the status badge), `Panel`
 * (what the disclosure shows: `Args` and `Result` by default). The root is
 * named by the Header's button and badge, or, composed without a Header, by
 * the same words as a label of its own; an `aria-label` or
 * `aria-labelledby` given to it wins.
 */
export const ToolCall = { Root, Header, Panel, Args, Result };

/** Props of `ToolCallCard`: the call, an optional custom renderer, its open state, and any prop of an `article`. */
export interface ToolCallCardProps extends ToolCallRootProps {
  /** Replaces the card of a call (generative UI); return undefined to keep the default card. */
  renderTool?: RenderTool | undefined;
}

/**
 * A tool call as a compact chip: one line with a disclosure button named
 * after the tool (numbered when the thread calls it more than once:
 * "get_weather (2)"), a short summary of the arguments, and the status in
 * words. The disclosure shows the arguments (leniently parsed while they
 * stream, never a crash on incomplete JSON) and the result or the error.
 *
 * Closed by default once settled; open by itself while a decision is awaited
 * on the call and when it failed, until the reader toggles it. Collapsed,
 * the arguments and result stay in the document (`hidden`). A failure that
 * comes from the run ending says so in a sentence (the run's error is the
 * run status's to show, once). `data-state` is the status; a `renderTool`
 * that returns something replaces the card. Memoized: a message's text
 * streaming around it re-renders none of its cards (keep `renderTool`
 * stable).
 *
 * @example
 * <ToolCallCard id={toolCallId} />
 */
export const ToolCallCard = React.memo(
  React.forwardRef<HTMLElement, ToolCallCardProps>(function ToolCallCard({ id, renderTool, ...rest }, ref) {
    useAgentStore('<ToolCallCard>');
    const call = useToolCall(id);
    const custom = call && renderTool ? renderTool(call) : undefined;
    if (custom !== undefined) return <>{custom}</>;
    return (
      <Root id={id} ref={ref} {...rest}>
        <Header />
        <Panel />
      </Root>
    );
  }),
);
