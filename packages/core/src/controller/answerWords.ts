/**
 * What an answer's body says, for a person: part of the engine's chunk (only
 * `classifyFailure` reads it). A JSON error is said by its message, a page
 * (a proxy's sign-in page, a gateway's error page) by its title or else its
 * first visible text, never its markup; whitespace is collapsed and control
 * characters (a terminal's escapes, bidi overrides) are not shown.
 */
import { textHead } from '../textHead.js';

/** How much of what an answer says a failure quotes, in characters. */
const MAX_SAID = 200;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a JSON error says: its message, with its code (`{"error": {"message", "code"}}`, `{"message", "code"}`,
 * `{"detail"}`, `{"error": "..."}`, as servers and gateways write them), else the text as it is.
 */
function jsonWords(body: string): string {
  if (!body.startsWith('{')) return body;
  try {
    const value: unknown = JSON.parse(body);
    if (isRecord(value)) {
      const error = isRecord(value.error) ? value.error : value;
      const said = [error.message, value.detail, value.error].find((m): m is string => typeof m === 'string' && m.trim() !== '');
      const code = typeof error.code === 'string' && error.code !== said ? ` (${error.code})` : '';
      if (said) return `${said.trim()}${code}`;
    }
  } catch {
    // Not JSON after all: said as the text it is.
  }
  return body;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** `&amp;`, `&#39;`, `&#x2013;` as the characters a page shows (others as written). */
const decodeEntities = (text: string) =>
  text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

/** Elements whose content no page shows as text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg']);

/**
 * The text a page shows, its tags, comments and hidden elements left out, up
 * to a little more than is quoted. Each search goes forward from the last,
 * so a page of unclosed tags takes one pass.
 */
function visibleText(html: string): string {
  const lower = html.toLowerCase();
  const tag = /<!--|<(\/?)([a-z][^\s/>]*)?[^>]*>?/gi;
  let text = '';
  let at = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    text += ` ${html.slice(at, m.index)}`;
    at = tag.lastIndex;
    const closing = m[0] === '<!--' ? '-->' : !m[1] && HIDDEN.has(m[2]?.toLowerCase() ?? '') ? `</${m[2]?.toLowerCase()}` : '';
    if (closing) {
      const end = lower.indexOf(closing, at);
      if (end < 0) return text;
      // Past the closing tag's `>` (a comment's closing is whole).
      const past = m[0] === '<!--' ? end + 3 : lower.indexOf('>', end) + 1 || html.length;
      tag.lastIndex = at = past;
    }
    if (text.length > MAX_SAID * 4 && /\S/.test(text)) return text;
  }
  return text + html.slice(at);
}

/**
 * What `body` says, for a failure to quote: at most MAX_SAID characters (and
 * an ellipsis when cut), or undefined when it says nothing readable.
 */
export function answerWords(body: string | undefined): string | undefined {
  const text = body?.replace(/^\uFEFF/, '').trim();
  if (!text) return undefined;
  let words: string;
  if (text.startsWith('<')) {
    const title = /<title\b[^>]{0,200}>([^<]*)/i.exec(text)?.[1];
    words = decodeEntities(title?.trim() ? title : visibleText(text));
  } else words = jsonWords(text);
  words = words
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!words) return undefined;
  return words.length > MAX_SAID ? `${textHead(words, MAX_SAID)}…` : words;
}

/** The code a JSON error answer names (`{"error": {"code"}}` or `{"code"}`), if any. */
export function errorCode(body: string): unknown {
  try {
    const value: unknown = JSON.parse(body);
    return isRecord(value) ? (isRecord(value.error) ? value.error : value).code : undefined;
  } catch {
    return undefined;
  }
}

/** A wait, as a person reads it: `30 s`, `2 min`, `3 h`. */
export function waitWords(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.ceil(s / 60)} min` : `${Math.ceil(s / 3600)} h`;
}
