'use client';

import * as React from 'react';
import { clientContext } from './clientContext.js';
import { LONG_TEXT, LongText } from './LongText.js';
import { markdownChunk } from './lazyChunks.js';
import { autoDir } from './textDirection.js';
import { useLazyModule } from './useLazyModule.js';

/**
 * The level of a reply's top heading (its `#`): 3 by default (a reply nested
 * in a page with an h2 above it); `MessageList` sets it one below the
 * heading above the conversation, so the page's outline never jumps.
 */
export const MarkdownHeadingLevel = clientContext<number>(3);

/**
 * Markdown from an untrusted author, rendered safely: raw HTML is dropped
 * (`skipHtml`), links are kept only for http(s) and mailto, a web link opens in a new
 * tab with `rel="noopener noreferrer"`, a link without words shows its address as them, a link whose words or title name another site
 * (`[https://bank.example.com](https://evil.example.net)`, `visit paypal.com now`,
 * an email address linked to another one or copying one in) shows where it really goes beside them, a
 * link's words read as written (direction controls in them dropped, those before them stopped at the link), images are
 * shown as links rather than loaded, code blocks are monospace, and headings start at h3 (a reply is
 * nested in the page; inside a `MessageList`, one level below the heading
 * above the conversation: `MarkdownHeadingLevel`). GitHub Flavored Markdown: tables, strikethrough, task
 * lists, bare URLs as links, footnotes (their ids prefixed per message, so two
 * replies never share one). Memoized on the text.
 *
 * The renderer (react-markdown, remark-gfm) is not in the first load: the
 * first text to render fetches it, and until it is there the text shows as
 * it came, as plain text with its line breaks (`data-markdown="loading"`,
 * then `"ready"`; `"failed"` when it could not be fetched, and the text stays
 * plain); `preloadMarkdown()` fetches it ahead. A server render shows the
 * plain text too, and the browser turns it into Markdown after hydrating.
 *
 * @example
 * <SafeMarkdown>{'**Refund issued** — see [the order](https://shop.example/orders/A-1001).'}</SafeMarkdown>
 */
export const SafeMarkdown = React.memo(function SafeMarkdown({ children }: { children: string }) {
  const id = React.useId();
  const { state } = useLazyModule(markdownChunk);
  const headingLevel = React.useContext(MarkdownHeadingLevel);
  // A text cut short as plain text stays so as the renderer comes (which would cut it too, anew): the reader's *Show
  // all* and focus there are kept.
  const [cutPlain, setCutPlain] = React.useState(false);
  const cut = children.length > LONG_TEXT && (cutPlain || state.status !== 'ready');
  if (cut !== cutPlain) setCutPlain(cut);
  if (state.status !== 'ready' || cut)
    return <PlainMarkdown text={children} failed={state.status === 'failed'} ready={state.status === 'ready'} />;
  return (
    <div className="agk-markdown agk-root" data-markdown="ready">
      <state.module.MarkdownBody text={children} headingLevel={headingLevel} idPrefix={`agk-${id.replace(/[^\w-]/g, '')}-`} />
    </div>
  );
});

/**
 * What `SafeMarkdown` shows until the renderer has loaded (or when it could
 * not be fetched), and for a text cut short before it came: the text as it
 * came, as text, line breaks kept. Internal; exported for its story.
 */
export function PlainMarkdown({ text, failed = false, ready = false }: { text: string; failed?: boolean; ready?: boolean }) {
  return (
    <div className="agk-markdown agk-root" data-markdown={ready ? 'ready' : failed ? 'failed' : 'loading'}>
      {text.length > LONG_TEXT ? (
        <LongText text={text} />
      ) : (
        <p className="agk-markdown__plain" dir={autoDir(text)}>
          {text}
        </p>
      )}
    </div>
  );
}
