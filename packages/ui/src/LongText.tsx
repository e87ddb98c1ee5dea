'use client';

import * as React from 'react';
import { useLocale } from './locale.js';
import { textHead } from './textCut.js';
import { autoDir } from './textDirection.js';

/**
 * How many characters of a text are laid out at first. Longer, a text is
 * shown cut at this length, as plain text, with the rest on demand: a reply
 * of a few megabytes took Markdown tens of seconds to parse and the browser
 * seconds to lay out, with the page frozen all that time.
 */
export const LONG_TEXT = 100_000;

/**
 * A text over `limit` characters (`LONG_TEXT` by default): its beginning as plain text (`code`: in a code block), how much
 * is shown, and *Show all*, which shows the whole text (still plain: it is
 * never parsed as Markdown). Focus stays on the text when the button goes.
 */
export function LongText({
  text,
  limit = LONG_TEXT,
  code = false,
  ...rest
}: { text: string; limit?: number; code?: boolean } & DataAttributes) {
  const { messages, format } = useLocale();
  const strings = messages.messages.longText;
  const [whole, setWhole] = React.useState(false);
  const shown = React.useRef<HTMLPreElement & HTMLParagraphElement>(null);
  const Shown = code ? 'pre' : 'p';
  return (
    <>
      <Shown
        {...rest}
        ref={shown}
        className={code ? 'agk-code agk-longtext__text' : 'agk-message__plain agk-longtext__text'}
        dir={autoDir(text)}
        tabIndex={whole ? -1 : undefined}
      >
        {whole ? text : `${textHead(text, limit)}…`}
      </Shown>
      {whole ? null : (
        <p className="agk-message__note agk-longtext__note">
          {strings.cut(format.number(limit), format.number(text.length))}{' '}
          <ShowAll label={strings.showAll} show={() => setWhole(true)} focus={shown} />
        </p>
      )}
    </>
  );
}

/** `data-*` attributes for the element that shows a text (`data-partial` on arguments still streaming). */
type DataAttributes = { [attribute: `data-${string}`]: string | undefined };

/**
 * A code block of text the agent sent (a tool's arguments or result, a tool
 * message): cut as a long reply is, past LONG_TEXT. `data-*` attributes go
 * on the `<pre>`.
 */
export function CodeText({ text, ...rest }: { text: string } & DataAttributes) {
  return text.length > LONG_TEXT ? (
    <LongText {...rest} text={text} code />
  ) : (
    <pre {...rest} className="agk-code">
      {text}
    </pre>
  );
}

/** *Show all* of a text cut short: shows the rest, and leaves focus on the text (the button goes with the cut, and focus would fall to the page). */
export function ShowAll({ label, show, focus }: { label: string; show: () => void; focus: React.RefObject<HTMLElement | null> }) {
  return (
    <button
      type="button"
      className="agk-button"
      data-size="sm"
      onClick={() => {
        show();
        requestAnimationFrame(() => focus.current?.focus({ preventScroll: true }));
      }}
    >
      {label}
    </button>
  );
}
