/**
 * `dir="auto"` for a block of text that holds a letter: it then takes the
 * direction of its first one (an Arabic paragraph reads right to left on an
 * English page, and the reverse). Without a letter (empty, a number, an
 * emoji) `auto` would read left to right whatever the page: such a block keeps
 * the page's direction instead.
 */
export function autoDir(text: string): 'auto' | undefined {
  return LETTER.test(text) ? 'auto' : undefined;
}

const LETTER = /\p{L}/u;

/** A Markdown tree node (hast), as far as its text goes. */
export interface TextNode {
  type?: string;
  value?: unknown;
  children?: readonly object[];
}

/** Whether a Markdown node's text holds a letter (stops at the first one found). */
export function holdsLetter(node: TextNode | undefined): boolean {
  if (!node) return false;
  if (node.type === 'text') return typeof node.value === 'string' && LETTER.test(node.value);
  return node.children?.some((child) => holdsLetter(child as TextNode)) ?? false;
}
