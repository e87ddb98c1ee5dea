/**
 * A long reply cut into pieces that render, one after the other, exactly
 * what the whole text renders: so that each piece can be memoized on its
 * text, and a streaming reply re-parses only its last piece rather than all
 * of it at every frame (Markdown parsing is linear in the text, and remark-gfm
 * costs tens of milliseconds on a 20 KB reply).
 *
 * Two kinds of cut, both conservative (a text that might render differently
 * is not cut there):
 *
 * - Between blocks: at a blank line followed by a line that can only start a
 *   new paragraph or heading (a letter or digit that is not a list marker, or
 *   an ATX heading), outside fenced code. After a blank line such a line at
 *   column 0 ends lists, quotes, tables and indented code. A group keeps the
 *   blank lines after it: a line of spaces may belong to indented code.
 * - Inside a long one-line paragraph: at a single space, once the run so far
 *   holds no character that can open inline markup spanning a space
 *   (emphasis, code, strikethrough, links, HTML, escapes), and where the next
 *   run starts with a letter, or a digit that opens no ordered list item
 *   (so it can never be read as a list, heading or
 *   quote). Autolinks, entities and the like cannot span a space. The runs
 *   render inside one paragraph, joined by that space.
 *
 * A text holding footnotes, link reference definitions or HTML is never cut:
 * a line of them changes what renders elsewhere.
 */

export type MarkdownPiece = { type: 'blocks'; text: string } | { type: 'paragraph'; sentences: string[] };

/** Texts shorter than this render whole: cutting pays off only where parsing costs. */
export const PIECES_FROM = 1_000;
/** The shortest run of sentences cut out of a paragraph. */
const RUN_LENGTH = 600;

const WHOLE = /\[\^|\]:|</;
const BLOCK_START = /^(?:[\p{L}\p{N}]|#{1,6}(?:[ \t]|$))/u;
const ORDERED_ITEM = /^\p{N}{1,9}[.)](?:[ \t]|$)/u;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** A paragraph line: up to three spaces of indent (which Markdown drops), then a letter or a digit. */
const PLAIN_PARAGRAPH = /^ {0,3}[\p{L}\p{N}]/u;
/**
 * A cut point: a character that is not whitespace, the space, then a letter,
 * or a digit that opens no ordered list item (`12. `, `3) `; a slice that
 * ends right after `12.` reads as one, on the safe side).
 */
const RUN_START = /^\S (?:\p{L}|(?!\p{N}{1,9}[.)](?:[ \t]|$))\p{N})/u;
/** Characters that may open inline markup reaching past a space (`<` never gets here: a text with one renders whole). */
const OPENS_INLINE = new Set(['*', '_', '`', '~', '[', '\\']);

/**
 * The pieces of `text`, or undefined when it renders whole (too short, or
 * holding what must not be cut).
 *
 * @example
 * markdownPieces('Intro.\n\n- a\n- b\n\nOutro.', 0); // blocks 'Intro.', '- a\n- b', 'Outro.'
 */
export function markdownPieces(text: string, from = PIECES_FROM): MarkdownPiece[] | undefined {
  if (text.length < from || WHOLE.test(text) || text.includes('\r')) return undefined;
  const groups: string[][] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | undefined;
  let blankBefore = false;
  for (const line of text.split('\n')) {
    const blank = line.trim() === '';
    if (!fence && blankBefore && !blank && BLOCK_START.test(line) && !ORDERED_ITEM.test(line)) {
      // A group keeps its blank lines: a line of spaces may still belong to its block (indented code).
      if (current.some((l) => l.trim() !== '')) groups.push(current);
      current = [];
    }
    current.push(line);
    const marker = FENCE.exec(line);
    if (marker) {
      const [, run = '', rest = ''] = marker;
      if (!fence) {
        // A backtick fence's info string holds no backtick; otherwise the line is not a fence.
        if (!(run[0] === '`' && rest.includes('`'))) fence = { char: run[0] ?? '`', length: run.length };
      } else if (run[0] === fence.char && run.length >= fence.length && rest.trim() === '') fence = undefined;
    }
    blankBefore = blank;
  }
  if (current.some((line) => line.trim() !== '')) groups.push(current);
  return groups.map((lines) => {
    const block = lines.join('\n');
    const filled = lines.filter((line) => line.trim() !== '');
    if (filled.length === 1 && lines[0] === filled[0] && block.length >= 2 * RUN_LENGTH && plainStart(block)) {
      const sentences = runsOf(lines[0] as string);
      if (sentences.length > 1) return { type: 'paragraph', sentences };
    }
    return { type: 'blocks', text: block };
  });
}

/** Whether a paragraph starts as nothing but a paragraph can: a letter, or a digit that opens no ordered list item (`12. `, `3) `). */
function plainStart(text: string): boolean {
  return PLAIN_PARAGRAPH.test(text) && !ORDERED_ITEM.test(text.trimStart());
}

/** A one-line paragraph cut at single spaces into runs of at least RUN_LENGTH characters, while nothing inline is open. */
function runsOf(line: string): string[] {
  const runs: string[] = [];
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (OPENS_INLINE.has(c)) break;
    // A single space between two words: whitespace next to it would be dropped at the edge of a run parsed alone.
    if (c === ' ' && i - start >= RUN_LENGTH && RUN_START.test(line.slice(i - 1, i + 13))) {
      runs.push(line.slice(start, i));
      start = i + 1;
    }
  }
  runs.push(line.slice(start));
  return runs;
}

/** How many containers (quotes, list items) or brackets deep one line of a reply may open before it is shown as plain text. */
export const MAX_MARKDOWN_NESTING = 32;
/** The most emphasis marks (`*`, `_`) one line may hold: their pairing is worked out in time that grows with the square of their count. */
const MAX_LINE_DELIMITERS = 1_000;

/**
 * Whether a line of `text` (outside fenced code) opens more than
 * MAX_MARKDOWN_NESTING containers (`> > > …`, `- - - …`, or a list indented
 * that far, four columns a level), or opens that many brackets within one
 * another (`![![![…`), or holds more than 1,000 emphasis marks: Markdown's
 * parsers and their tree transforms recurse once per level, or pair the
 * marks in quadratic time, so 3,000 `>` overflow the stack and a few
 * thousand `![` take seconds. No reply a person reads is written so; one
 * that is shows as the text it is. One pass, no backtracking.
 */
export function nestsTooDeep(text: string): boolean {
  let fence = '';
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      // A fence closes on a line of at least as many of its own marks.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = '';
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (lineTooDeep(line)) return true;
  }
  return false;
}

function lineTooDeep(line: string): boolean {
  let depth = 0;
  let columns = 0;
  let leading = true;
  let brackets = 0;
  let marks = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 91 /* [ */ && ++brackets > MAX_MARKDOWN_NESTING) return true;
    if (c === 93 /* ] */ && brackets > 0) brackets--;
    if ((c === 42 || c === 95) /* * _ */ && ++marks > MAX_LINE_DELIMITERS) return true;
    if (!leading) continue;
    if (c === 32 /* space */ || c === 9 /* tab */) {
      // Only the indentation before the first marker nests a list; spaces between `>` marks do not.
      if (depth === 0) columns += c === 9 ? 4 : 1;
      continue;
    }
    if (c === 62 /* > */ || ((c === 45 || c === 42 || c === 43) /* - * + */ && isBlank(line.charCodeAt(i + 1)))) depth++;
    else if (c >= 48 && c <= 57 /* a digit */) {
      let j = i;
      while (j < line.length && j - i < 9 && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j++;
      const mark = line.charCodeAt(j);
      if (!((mark === 46 || mark === 41) /* . ) */ && isBlank(line.charCodeAt(j + 1)))) {
        leading = false;
        continue;
      }
      depth++;
      i = j;
    } else {
      leading = false;
      continue;
    }
    // A container opened; a list nested by indentation takes at least two columns a level, counted here as four
    // so that an indented code line (a comment's ` * ` in it) is not taken for one.
    if (depth + columns / 4 > MAX_MARKDOWN_NESTING) return true;
  }
  return false;
}

const isBlank = (c: number) => c === 32 || c === 9 || c === 10 || Number.isNaN(c);
