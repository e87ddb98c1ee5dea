/** How far before a cut `textHead` looks for the start of the grapheme the cut falls in. */
const GRAPHEME_WINDOW = 64;

/** How far before a cut `textHead` looks back for the start of a row of flags (the letters pair from its start). */
const FLAG_ROW_WINDOW = 1024;

let segmenter: Intl.Segmenter | null | undefined;
/** One segmenter for the module: constructing one costs more than the cut it serves. */
function graphemes(): Intl.Segmenter | null {
  if (segmenter === undefined)
    segmenter =
      typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        : null;
  return segmenter;
}

/**
 * A UTF-16 unit that no grapheme goes on across, before or after it: Latin
 * (below the combining marks, U+0300) and CJK ideographs. CR is not (CR LF is
 * one grapheme).
 */
const plain = (unit: number): boolean => (unit < 0x300 && unit !== 0x0d) || (unit >= 0x4e00 && unit <= 0x9fff);

/** Whether the code point that ends at `end` (exclusive) is a regional indicator (a flag's letter, U+1F1E6..U+1F1FF). */
const letterOfFlagBefore = (text: string, end: number): boolean =>
  end >= 2 && text.charCodeAt(end - 2) === 0xd83c && text.charCodeAt(end - 1) >= 0xdde6 && text.charCodeAt(end - 1) <= 0xddff;

/**
 * The first `limit` UTF-16 units of `text` or fewer: whole graphemes only, so
 * a cut never leaves half of a surrogate pair, a flag's first letter or a
 * family emoji's first people. A cut between two plain characters (see
 * `plain`) is made at once; otherwise only the text around the cut is
 * segmented (a grapheme longer than 64 units, stacked combining marks, is cut
 * between code points, and so is a row of more than 512 flags).
 */
export function textHead(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 0) return '';
  if (plain(text.charCodeAt(limit - 1)) && plain(text.charCodeAt(limit))) return text.slice(0, limit);
  const last = text.charCodeAt(limit - 1);
  const byCodePoint = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
  const segments = graphemes();
  if (!segments) return text.slice(0, byCodePoint);
  let from = Math.max(0, limit - GRAPHEME_WINDOW);
  const at = text.charCodeAt(from);
  if (from > 0 && at >= 0xdc00 && at <= 0xdfff) from -= 1;
  // A flag's two letters pair from the start of their row: the window starts there, not between two letters.
  const floor = Math.max(0, from - FLAG_ROW_WINDOW);
  while (from > floor && letterOfFlagBefore(text, from)) from -= 2;
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
