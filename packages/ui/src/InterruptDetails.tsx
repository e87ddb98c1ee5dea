'use client';

import { useToolCall } from '@aguikit/react';
import * as React from 'react';
import { Countdown } from './Countdown.js';
import { cx } from './InterruptRoot.js';
import { useInterruptRoot } from './interruptContext.js';
import { humanizeKey, plainValue, type ValueWords, valueWords } from './interruptForm.js';
import { CodeText } from './LongText.js';
import { useLocale } from './locale.js';
import { jsonText, useArgsShown, useArgsView } from './partialArgs.js';
import { autoDir } from './textDirection.js';

/** Props of `Interrupt.Header`: DOM props of its `<header>`. */
export type InterruptHeaderProps = React.HTMLAttributes<HTMLElement>;

/** The `Interrupt.Header` part: see `Interrupt`. */
export const InterruptHeader = React.forwardRef<HTMLElement, InterruptHeaderProps>(function InterruptHeader({ className, ...rest }, ref) {
  const { kind, interrupt, ids, state, answer } = useInterruptRoot('Header');
  const t = useLocale().messages.interrupt;
  return (
    <>
      <header {...rest} ref={ref} className={cx('agk-interrupt__header', className)}>
        <h3 className="agk-interrupt__title" id={ids.title}>
          {t.titles[kind]}
        </h3>
        {kind === 'custom' ? (
          <span className="agk-badge agk-interrupt__reason" data-tone="neutral" title={t.reason}>
            {interrupt.reason}
          </span>
        ) : null}
        <Countdown />
      </header>
      {/* A `cancelled` answer kept at expiry is still sent (a resolved one is dropped). */}
      {state === 'expired' ? (
        <p className="agk-interrupt__why">{answer?.status === 'cancelled' ? t.expiredKeptWhy : t.expiredWhy}</p>
      ) : null}
    </>
  );
});

function ToolFacts({ toolCallId }: { toolCallId: string }) {
  const call = useToolCall(toolCallId);
  const view = useArgsView(call);
  const shown = useArgsShown(view, call?.argsText ?? '');
  const t = useLocale().messages.interrupt;
  return (
    <>
      <div className="agk-interrupt__fact">
        <dt>{t.tool}</dt>
        <dd>
          <code className="agk-interrupt__tool">{call ? call.name : t.unknownCall(toolCallId)}</code>
        </dd>
      </div>
      {view.kind === 'empty' ? null : (
        <div className="agk-interrupt__fact" data-wide="true">
          <dt>{t.arguments}</dt>
          <dd>
            {/* A megabyte of arguments (a file to write) shows its head, as in the call's card. */}
            <CodeText text={shown} />
          </dd>
        </div>
      )}
    </>
  );
}

/**
 * A metadata value as people read it: words, numbers and lists of them as
 * text; an object as a labelled list of its own; deeper structure as JSON.
 */
function MetadataValue({ value, words, depth }: { value: unknown; words: ValueWords; depth: number }) {
  // A list of words: each item set apart, so that an override in one (U+202E) cannot reverse the items after it.
  if (Array.isArray(value) && value.length > 1 && plainValue(value, words) !== undefined)
    return (
      <>
        {isolatedList(
          value.map((item) => plainValue(item, words) ?? String(item)),
          words.list,
        )}
      </>
    );
  const plain = plainValue(value, words);
  if (plain !== undefined) return <>{plain}</>;
  if (depth < 2 && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return <MetadataList entries={Object.entries(value)} words={words} depth={depth + 1} />;
  }
  return <code className="agk-interrupt__json">{jsonText(value)}</code>;
}

/** `list(items)` in the locale's words ("a, b, and c"), each item in a `<bdi>` of its own. */
function isolatedList(items: readonly string[], list: ValueWords['list']): React.ReactNode[] {
  // The list is formed around markers, then each marker is the item it stands for: the words between stay the locale's.
  return list(items.map((_, i) => `\u0000${i}\u0000`))
    .split('\u0000')
    .map((piece, i) => (i % 2 ? <bdi key={piece}>{items[Number(piece)]}</bdi> : piece));
}

function MetadataList({ entries, words, depth }: { entries: [string, unknown][]; words: ValueWords; depth: number }) {
  return (
    <dl className="agk-interrupt__facts" data-depth={depth}>
      {entries.map(([key, value]) => (
        <div className="agk-interrupt__fact" key={key} data-key={key}>
          <dt title={key}>{humanizeKey(key)}</dt>
          <dd>
            <MetadataValue value={value} words={words} depth={depth} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Props of `Interrupt.Context`: DOM props of its `<div>`. */
export type InterruptContextProps = React.HTMLAttributes<HTMLDivElement>;

/**
 * The `Interrupt.Context` part: see `Interrupt`. The message, then the tool
 * and its arguments and the metadata as labelled fields (a `<dl>`: keys made
 * readable, `riskScore` reads "Risk score", the key as sent on hover;
 * numbers and lists in the locale's words).
 */
export const InterruptDetails = React.forwardRef<HTMLDivElement, InterruptContextProps>(function InterruptDetails(
  { className, ...rest },
  ref,
) {
  const { interrupt, ids } = useInterruptRoot('Context');
  const { messages, format } = useLocale();
  const words = valueWords(messages.interrupt, format);
  const metadata = Object.entries(interrupt.metadata ?? {});
  const hasFacts = interrupt.toolCallId !== undefined || metadata.length > 0;
  return (
    <div {...rest} ref={ref} className={cx('agk-interrupt__context', className)}>
      {interrupt.message ? (
        <p className="agk-interrupt__message" id={ids.message} dir={autoDir(interrupt.message)}>
          {interrupt.message}
        </p>
      ) : null}
      {hasFacts ? (
        <dl className="agk-interrupt__facts">
          {interrupt.toolCallId !== undefined ? <ToolFacts toolCallId={interrupt.toolCallId} /> : null}
          {metadata.map(([key, value]) => (
            <div className="agk-interrupt__fact" key={key} data-key={key}>
              <dt title={key}>{humanizeKey(key)}</dt>
              <dd>
                <MetadataValue value={value} words={words} depth={0} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
});
