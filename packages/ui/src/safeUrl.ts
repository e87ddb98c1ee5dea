import type { ContentPart } from '@aguikit/core';

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const WEB_PROTOCOLS = new Set(['http:', 'https:']);
const IMAGE_MIME = /^image\/[a-z0-9.+-]+$/i;
// Tested on the value without its whitespace: no character may match two parts of a pattern, so a
// hostile value of a million spaces costs a pass over it, not a backtracking search.
const BASE64 = /^[a-z0-9+/]*={0,2}$/i;
const DATA_IMAGE_PREFIX = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*;base64,/i;
const WHITESPACE = /\s+/g;

type PartSource = Extract<ContentPart, { type: 'image' }>['source'];

/**
 * The URL a link may point to: absolute http(s) or mailto, normalised by the
 * URL parser (so `java\tscript:` and friends are seen as the browser sees
 * them), or undefined. Relative URLs are refused too: agent text must not
 * route inside the host application.
 */
export function safeLinkHref(value: string): string | undefined {
  const url = parse(value);
  return url && LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/** An absolute http(s) URL, normalised, or undefined. */
export function safeWebUrl(value: string): string | undefined {
  const url = parse(value);
  return url && WEB_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/**
 * The `src` an image part may load: an http(s) URL, a `data:image/...;base64`
 * URL, or inline base64 bytes with an `image/*` MIME type. Anything else (a
 * `javascript:` or `file:` URL, a provider's file handle, a non-image type)
 * is undefined and is shown as text instead.
 */
export function safeImageSrc(source: PartSource): string | undefined {
  if (source.type === 'url') {
    const prefix = DATA_IMAGE_PREFIX.exec(source.value);
    if (!prefix) return safeWebUrl(source.value);
    return BASE64.test(source.value.slice(prefix[0].length).replace(WHITESPACE, '')) ? source.value : undefined;
  }
  if (source.type === 'data' && IMAGE_MIME.test(source.mimeType)) {
    const bytes = source.value.replace(WHITESPACE, '');
    if (BASE64.test(bytes)) return `data:${source.mimeType};base64,${bytes}`;
  }
  return undefined;
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value.trim());
  } catch {
    return undefined;
  }
}
