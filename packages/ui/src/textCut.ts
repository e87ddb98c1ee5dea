/** How far before a cut `textHead` looks for the start of the grapheme the cut falls in. */
const GRAPHEME_WINDOW = 64;

let segmenter: Intl.Segmenter | null | undefined;
/** One segmenter for the module: constructing one costs more than the cut it serves. */
function graphemes(): Intl.Segmenter | null {
  if (segmenter === undefined)
    segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  return segmenter;
}

/**
 * The first `limit` UTF-16 units of `text` or fewer: whole graphemes only, so
 * a cut never leaves half of a surrogate pair, a flag's first letter or a
 * family emoji's first people. Only the text around the cut is segmented (a
 * grapheme longer than 64 units, stacked combining marks, is cut between code
 * points).
 */
export function textHead(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  const byCodePoint = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
  const segments = graphemes();
  if (!segments || limit <= 0) return text.slice(0, byCodePoint);
  const from = Math.max(0, limit - GRAPHEME_WINDOW);
  // A few units past the cut: whether a grapheme goes on across it depends on what follows (a ZWJ, a modifier).
  const window = text.slice(from, Math.min(text.length, limit + GRAPHEME_WINDOW));
  let start = 0;
  for (const { index } of segments.segment(window)) {
    if (from + index > limit) break;
    start = index;
  }
  return start === 0 && from > 0 ? text.slice(0, byCodePoint) : text.slice(0, from + start);
}

/** `text` in at most `max` characters: cut between whole graphemes, with `…` for what was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${textHead(text, max - 1)}…` : text;
}
