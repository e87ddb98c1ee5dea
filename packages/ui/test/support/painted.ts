/**
 * Where text is painted, for the tests that check an agent's direction
 * override (U+202E) cannot reorder what is shown after it.
 */

/**
 * The box of the first `chars` characters (all of it by default) of the first
 * occurrence of `needle` in `root`'s text: with one character, the box where
 * a word that may wrap begins.
 */
export function paintedBox(root: Element, needle: string, chars = needle.length): DOMRect {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = (node.textContent ?? '').indexOf(needle);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + chars);
    return range.getBoundingClientRect();
  }
  throw new Error(`"${needle}" is not in the text`);
}

/** Whether `later` is painted after `earlier` in reading order: further along the same line, or on a line below it. */
export function paintedAfter(earlier: DOMRect, later: DOMRect): boolean {
  return later.top >= earlier.bottom - 0.5 || (later.top < earlier.bottom && later.left >= earlier.right - 0.5);
}
