/**
 * A long reply cut into pieces that render, one after the other, exactly
 * what the whole text renders: so that each piece can be memoized on its
 * text, and a streaming reply re-parses only its last piece rather than all
 * of it at every frame (Markdown parsing is linear in the text, and remark-gfm
 * costs tens of milliseconds on a 20 KB reply, most of a second on a 100 KB
 * list or table).
 *
 * Every cut is conservative: a text that might render differently is not
 * cut there. Blocks are cut apart, outside fenced code:
 *
 * - before a line at column 0 that starts a paragraph, a heading or a table
 *   (a letter or digit that is not a list marker, also after emphasis or
 *   code marks, `**Step 1:**`; `#`, `|`) after a blank line: such a line
 *   ends lists, quotes, tables and indented code;
 * - before and after an ATX heading or a fence at column 0: nothing
 *   continues them, and they interrupt everything;
 * - before a list item at column 0 after a blank line, unless an item of the
 *   same kind (bullet, or number and delimiter) began at column 0 in the
 *   block so far: it would continue that list; and after lines of a plain
 *   paragraph, where the item may interrupt one (a bullet with text, or the
 *   number 1).
 *
 * - before a quote at column 0 after a blank line, unless after indented
 *   code: a blank line ends the quote above and lists, and nothing below
 *   continues them.
 *
 * A block keeps the blank lines after it: a line of spaces may belong to
 * indented code. Then a block is cut inside:
 *
 * - a tight list (no blank line inside; every line an item of the first
 *   item's kind, or indented into the item above; no task items, which give
 *   the list a class) into its items, the list element drawn around them;
 *   a loose list likewise, each item parsed in a loose list of its own
 *   (where its lines hold no quote, lazy line or indented code, and its
 *   fences close within their item);
 * - a table (a header whose cells hold no escape or code, a delimiter row
 *   with as many cells, rows that each start with `|`), after the plain
 *   lines of a paragraph it interrupts or alone, into its rows, each
 *   parsed under a header of the table's columns and alignments alone (the
 *   header's text bears on no row);
 * - a fenced code block at column 0 with a one-word language is not parsed
 *   at all: its lines are its text;
 * - a long one-line paragraph at single spaces, once the run so far holds no
 *   character that can open inline markup spanning a space (emphasis, code,
 *   strikethrough, links, HTML, escapes), and where the next run starts with
 *   a letter, or a digit that opens no ordered list item (so it can never be
 *   read as a list, heading or quote). Autolinks, entities and the like
 *   cannot span a space. The runs render inside one paragraph, joined by
 *   that space.
 *
 * - a quote of paragraphs, every line opening the same quotes (`> > `)
 *   and then a letter, or a digit that opens no ordered list item, also
 *   after quotation marks or a parenthesis (`"`, `(`, `“`, `«`) or emphasis
 *   or code marks (`**From:**`; so no line can be read as a list, heading,
 *   table row or lazy line), or being those quotes' marks alone (`> >`,
 *   which ends a paragraph), into its paragraphs, and each into runs of
 *   lines of at least RUN_LENGTH characters, after lines where all the
 *   inline markup they open closes (`closesWithin`; a line where it may not
 *   leaves the rest of the paragraph whole) and the line before the cut ends
 *   in no space (two would break the line). The quotes are drawn once around
 *   the paragraphs; the runs render inside theirs, joined by a line break. A
 *   last line of no more of the same quotes' marks alone (a line streaming
 *   in) renders nothing, and is left out.
 * - any other quote whose every line opens it (`> `, or `>` alone), no tab
 *   in it, into the pieces of what it holds, read as a text of its own (a
 *   quoted list into its items); the quote is drawn once around them. Where
 *   a list is followed by a blank line, a quote reads it otherwise than a
 *   text does: a list may only be in its last piece, and then with no blank
 *   line.
 *
 * A text that may hold an HTML block, a link reference definition or a
 * footnote is never cut: a line of them changes what renders elsewhere.
 * Each can only open a line (after the marks of quotes and list items):
 * an HTML block a `<` then a letter, `/`, `!` or `?` (outside a fence at
 * column 0, where it is code); a definition a label, a `[` and then `]:`
 * with no other bracket between (outside fenced code; `definesLabel`). A `<`
 * elsewhere is inline HTML or an autolink at most, within its paragraph
 * (whose runs are not cut after one, unless whitespace follows it: then it
 * is text); a footnote call, a reference link without a definition, a task
 * box (`- [ ]`) or a `]:` within a line (`arr[0]: 1`) is text.
 */

export type MarkdownPiece =
  | { type: 'blocks'; text: string }
  | { type: 'paragraph'; sentences: string[] }
  | { type: 'list'; ordered: boolean; start: number; items: string[]; loose?: { leader: string } }
  | { type: 'table'; head: string; frame: string; rows: string[] }
  | { type: 'quote'; depth: number; paragraphs: string[][] }
  | { type: 'quoted'; pieces: MarkdownPiece[] }
  | { type: 'code'; language: string; code: string };

/** Texts shorter than this render whole: cutting pays off only where parsing costs. */
export const PIECES_FROM = 1_000;
/** The shortest run of sentences cut out of a paragraph. */
const RUN_LENGTH = 600;

/** A line that may open an HTML block, after what may be the marks of quotes and list items, and an indent. */
const HTML_LINE = /^[ \t>*+.)0-9-]*<[A-Za-z/!?]/;
/** Whether some line of a text may open an HTML block. */
const HTML_LINES = new RegExp(HTML_LINE.source, 'm');
/** Where a line may open a link's or a footnote's label (`[label]:`, `[^1]:`), likewise: its `[`. */
const LABEL_START = /^[ \t>*+.)0-9-]*\[/;
/** The most characters a link's label may hold. */
const MAX_LABEL = 999;
/** What a line going on with a label opens with that is not in the label, at most: quotes' marks and an indent. */
const LABEL_GOES_ON = /^[ \t>]*/;
/** A letter or a digit, also after emphasis or code marks (`**Step 1:**`, `` `npm` ``), a pipe, or an ATX heading. */
const BLOCK_START = /^(?:(?:[*_]+|`{1,2})?[\p{L}\p{N}]|\||#{1,6}(?:[ \t]|$))/u;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const ORDERED_ITEM = /^\p{N}{1,9}[.)](?:[ \t]|$)/u;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/s;
/** An info string of one plain word (or none): its language needs no decoding. */
const PLAIN_INFO = /^[\w+#.-]*$/;
/** A list marker, where a line's containers are read one by one (`fenceInItem`). */
const MARKER_AT = /(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t])/y;
/** A run of marks that may open a fence, anywhere in a line. */
const FENCE_MARKS = /`{3}|~{3}/;
/** A fence's run of marks, where a line's containers end. */
const FENCE_AT = /`{3,}|~{3,}/y;
/** What an item's text must not start with to be cut before where it interrupts: a quote or a list of its own. */
const NESTED_START = /^(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$))/;
/** A list item at column 0: its marker (a bullet, or up to nine digits and a delimiter), then one space and its text, or nothing yet. */
const LIST_ITEM = /^(?:([-*+])|([0-9]{1,9})([.)]))(?:$| $| (?=\S))/;
/** Anything Markdown may read as a list item (up to three spaces, a marker, then whitespace or nothing), and its kind. */
const LIST_MARKER = /^ {0,3}(?:([-*+])|[0-9]{1,9}([.)]))(?:[ \t]|$)/;
/** A thematic break (`- - -`, `***`): it is not a list item, and ends a list. */
const THEMATIC_BREAK = /^ {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$/;
/** A line four columns in, or with a tab in its indent: it may be indented code. */
const INDENTED = /^(?: {4}| {0,3}\t)/;
/** A paragraph line: up to three spaces of indent (which Markdown drops), then a letter or a digit. */
const PLAIN_PARAGRAPH = /^ {0,3}[\p{L}\p{N}]/u;
/** A line that can only go on a paragraph begun by lines like it. */
const PLAIN_LINE = /^[\p{L}\p{N}]/u;
/**
 * A cut point: a character that is not whitespace, the space, then a letter,
 * or a digit that opens no ordered list item (`12. `, `3) `; a slice that
 * ends right after `12.` reads as one, on the safe side).
 */
const RUN_START = /^\S (?:\p{L}|(?!\p{N}{1,9}[.)](?:[ \t]|$))\p{N})/u;
/** Characters that may open inline markup reaching past a space. */
const OPENS_INLINE = new Set(['*', '_', '`', '~', '[', '\\', '&']);
/** Whether the character of `line` at `i` may open inline markup: also a `<` not followed by whitespace (HTML, an autolink). */
const opensInline = (line: string, i: number): boolean =>
  OPENS_INLINE.has(line[i] as string) || (line[i] === '<' && filled(line[i + 1] ?? ''));

/** A blank line, to Markdown: spaces and tabs only (a no-break or an ideographic space is text). */
const BLANK = /^[ \t]*$/;
const filled = (line: string) => !BLANK.test(line);

/** `text` without the spaces and tabs at its ends (what Markdown trims; `trim()` takes more). */
function trimBlank(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return text.slice(start, end);
}

/** How many spaces `line` starts with. */
function leadingSpaces(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/**
 * A fence opened on a list item's line (`1. ```bash`), after its markers
 * (and quotes): the column its code starts at, and whether a quote holds it;
 * undefined when the line opens none.
 */
function fenceInItem(line: string): { char: string; length: number; indent: number; quoted: boolean } | undefined {
  let i = 0;
  let items = 0;
  let quoted = false;
  for (;;) {
    const spaces = leadingSpaces(line.slice(i, i + 4));
    if (spaces > 3) break;
    i += spaces;
    if (line[i] === '>') {
      quoted = true;
      i++;
      if (line[i] === ' ' || line[i] === '\t') i++;
      continue;
    }
    MARKER_AT.lastIndex = i;
    const marker = MARKER_AT.exec(line);
    if (!marker) break;
    items++;
    i += marker[0].length;
    while (line[i] === ' ' || line[i] === '\t') i++;
  }
  FENCE_AT.lastIndex = i;
  const run = items > 0 ? FENCE_AT.exec(line)?.[0] : undefined;
  if (!run || (run[0] === '`' && line.includes('`', i + run.length))) return undefined;
  return { char: run[0] as string, length: run.length, indent: i, quoted };
}

/** A fence that never closes: where the text is read in more ways than one, nothing after is cut. */
const UNDECIDED = { char: '', length: Number.POSITIVE_INFINITY, indent: 0 };

/** A list item's line: its kind, whether numbered and from what (`one`: numbered exactly `1`), its marker's width, whether it has text. */
type ListItem = { kind: string; ordered: boolean; start: number; one: boolean; width: number; text: boolean };

function listItem(line: string): ListItem | undefined {
  const m = LIST_ITEM.exec(line);
  if (!m || THEMATIC_BREAK.test(line)) return undefined;
  const [marker, bullet, digits = '', delimiter = ''] = m;
  const width = (bullet ?? digits + delimiter).length + 1;
  return {
    kind: bullet ?? delimiter,
    ordered: !bullet,
    start: Number(digits),
    one: digits === '1',
    width,
    text: marker.length < line.length,
  };
}

/**
 * The pieces of `text`, or undefined when it renders whole (too short, or
 * holding what must not be cut).
 *
 * @example
 * markdownPieces('Intro.\n\n- a\n- b\n\nOutro.', 0); // blocks 'Intro.', a list of 'a' and 'b', blocks 'Outro.'
 */
export function markdownPieces(text: string, from = PIECES_FROM): MarkdownPiece[] | undefined {
  // A byte order mark is dropped at the start of whatever text is parsed: each piece would drop one.
  if (text.length < from || (text.includes(']:') && definesLabel(text)) || /[\r\0\ufeff]/.test(text)) return undefined;
  const html = HTML_LINES.test(text);
  const groups: string[][] = [];
  let current: string[] = [];
  /** Whether the current block holds a line that is not blank. */
  let holdsText = false;
  /** The list kinds begun at column 0 in the current block. */
  let kinds = new Set<string>();
  /** Whether the current block so far is lines of a plain paragraph. */
  let plain = true;
  let fence: { char: string; length: number; indent: number } | undefined;
  let blankBefore = false;
  /** Whether the last line that was not blank ended a block nothing continues: an ATX heading, or a fence closed at column 0. */
  let ended = false;
  /** Whether the last line that was not blank may be indented code (four columns in). */
  let afterCode = false;
  for (const line of text.split('\n')) {
    // A line of a fence opened at column 0 is its code (no container holds it, and no HTML block opened above it, or
    // the text would have ended here): anywhere else, a line that may open an HTML block keeps the text whole.
    if (html && !(fence && fence !== UNDECIDED && fence.indent === 0) && HTML_LINE.test(line)) return undefined;
    const blank = !filled(line);
    const item = blank ? undefined : listItem(line);
    if (!fence && !blank && holdsText) {
      const cut =
        ended ||
        HEADING.test(line) ||
        opensFence(line, 0) ||
        (blankBefore && BLOCK_START.test(line) && !ORDERED_ITEM.test(line)) ||
        // Not after indented code: there Markdown reads what the quote's first line opens as interrupting (`>  -`).
        (blankBefore && line.startsWith('>') && !afterCode) ||
        // Only an item that could interrupt a paragraph (a bullet with text, or the number 1, not 01), whose text
        // starts no quote or list of its own, and not right after indented code: where a list interrupts a
        // paragraph, or follows indented code and a blank line, Markdown reads what its first line opens as
        // interrupting too (`- 3.` holds the paragraph "3." there, and a list alone).
        (item?.text &&
          (!item.ordered || item.one) &&
          !NESTED_START.test(line.slice(item.width)) &&
          (blankBefore ? !kinds.has(item.kind) && !afterCode : plain));
      if (cut) {
        groups.push(current);
        current = [];
        holdsText = false;
        kinds = new Set();
        plain = true;
      }
    }
    current.push(line);
    if (!blank) {
      holdsText = true;
      ended = false;
      afterCode = INDENTED.test(line);
    }
    plain &&= PLAIN_LINE.test(line) && !ORDERED_ITEM.test(line);
    const kind = fence ? undefined : LIST_MARKER.exec(line);
    if (kind) kinds.add(kind[1] ?? kind[2] ?? '');
    const marker = FENCE.exec(line);
    const inItem = fence || marker ? undefined : fenceInItem(line);
    if (fence && fence.indent > 0 && !blank && leadingSpaces(line) < fence.indent) {
      // A fence opened indented may be in a list item, which a line less indented ends, and the fence with it (a
      // fence-like line then opens a new one); or it stands alone and goes on. Which, only the items' indents
      // tell: nothing is cut after this.
      fence = UNDECIDED;
    } else if (inItem) {
      // A fence in a quote in an item ends where either does: which, only the text's containers tell.
      fence = inItem.quoted ? UNDECIDED : inItem;
    } else if (marker) {
      const [, spaces = '', run = '', rest = ''] = marker;
      if (!fence) {
        if (opensFence(line, spaces.length)) fence = { char: run[0] ?? '`', length: run.length, indent: spaces.length };
      } else if (run[0] === fence.char && run.length >= fence.length && BLANK.test(rest)) {
        ended = fence.indent === 0;
        fence = undefined;
      }
    } else if (!fence && HEADING.test(line)) ended = true;
    blankBefore = blank;
  }
  if (holdsText) groups.push(current);
  return groups.flatMap((lines) => introAndTable(lines) ?? [blockOf(lines)]);
}

/**
 * Whether a line of `text` outside fenced code may define a link or a
 * footnote (`[label]: /url`, `[^1]: a`): one that opens, after what may be
 * the marks of quotes and list items and an indent, a label closed by `]:`
 * (no bracket in it but an escaped one, at most MAX_LABEL characters,
 * maybe over lines with no blank line between them, whose endings, quotes'
 * marks and indents it does not count). A task box (`- [ ] a`),
 * a link (`[a](u)`) or an alert (`> [!NOTE]`) opening a line defines
 * nothing, nor does a `]:` elsewhere (`arr[0]: 1`). One pass.
 */
function definesLabel(text: string): boolean {
  /** How many characters the label a line above opened holds so far; -1 where none is open. */
  let label = -1;
  return someLineOutsideFences(text, (line) => {
    const start = LABEL_START.exec(line);
    let i: number;
    if (start) {
      label = 0;
      i = start[0].length;
    } else if (label < 0 || !filled(line)) {
      label = -1;
      return false;
    } else {
      // A line going on with the label: its quotes' marks and indent, like the line ending, are not in it.
      i = LABEL_GOES_ON.exec(line)?.[0].length ?? 0;
    }
    for (; i < line.length; i++, label++) {
      const c = line[i];
      // A backslash escapes what follows it on its line, and at the end of a line is one character of the label.
      if (c === '\\' && i + 1 < line.length) {
        i++;
        label++;
      } else if (c === '[' || c === ']' || label >= MAX_LABEL) {
        const defines = c === ']' && line[i + 1] === ':';
        label = -1;
        return defines;
      }
    }
    return false;
  });
}

function blockOf(lines: string[]): MarkdownPiece {
  return (
    codeOf(lines) ??
    listOf(lines) ??
    looseListOf(lines) ??
    tableOf(lines) ??
    paragraphOf(lines) ??
    quoteOf(lines) ??
    quotedOf(lines) ?? { type: 'blocks', text: lines.join('\n') }
  );
}

/**
 * A paragraph of plain lines, then a table that interrupts it (a header row and
 * its delimiter row end a paragraph): the paragraph, and the table cut into
 * its rows.
 */
function introAndTable(lines: string[]): MarkdownPiece[] | undefined {
  const at = lines.findIndex((line) => line.startsWith('|'));
  const intro = lines.slice(0, at);
  if (at < 1 || !intro.every((line) => PLAIN_LINE.test(line) && !ORDERED_ITEM.test(line) && !line.includes('|'))) return undefined;
  const table = tableOf(lines.slice(at));
  return table && [blockOf(intro), table];
}

/** Whether `line` opens a fence indented `indent` spaces (a backtick fence's info string holds no backtick). */
function opensFence(line: string, indent: number): boolean {
  const marker = FENCE.exec(line);
  if (!marker || marker[1]?.length !== indent) return false;
  const [, , run = '', rest = ''] = marker;
  return !(run[0] === '`' && rest.includes('`'));
}

/** A fenced code block at column 0, closed or running to the end of the text: its code is its lines. */
function codeOf(lines: string[]): MarkdownPiece | undefined {
  const first = lines[0] ?? '';
  const run = /^(?:`{3,}|~{3,})/.exec(first)?.[0];
  const language = run ? trimBlank(first.slice(run.length)) : '';
  if (!run || !PLAIN_INFO.test(language)) return undefined;
  const body = lines.slice(1);
  const end = body.findIndex((line) => {
    const close = FENCE.exec(line);
    return close?.[2]?.[0] === run[0] && (close?.[2]?.length ?? 0) >= run.length && BLANK.test(close?.[3] ?? '');
  });
  let code: string[];
  if (end === -1) {
    // A fence still open at the end of the text: its code is the rest, less the text's last line ending.
    code = body.at(-1) === '' ? body.slice(0, -1) : body;
  } else {
    if (body.slice(end + 1).some(filled)) return undefined;
    code = body.slice(0, end);
  }
  const value = code.join('\n');
  return { type: 'code', language, code: value ? `${value}\n` : '' };
}

/** The lines of `lines` before the blank lines it ends with. */
function withoutTrailingBlanks(lines: string[]): string[] {
  let last = lines.length;
  while (last > 0 && !filled(lines[last - 1] as string)) last--;
  return lines.slice(0, last);
}

/** A tight list: every line an item of the first item's kind at column 0, or indented into the item above it. */
function listOf(lines: string[]): MarkdownPiece | undefined {
  const first = listItem(lines[0] ?? '');
  if (!first) return undefined;
  const items: string[][] = [];
  let indent = '';
  const body = withoutTrailingBlanks(lines);
  for (const line of body) {
    const item = listItem(line);
    if (item?.kind === first.kind) {
      // A task item's box gives the whole list a class: such a list renders whole.
      if (line.charAt(item.width) === '[') return undefined;
      items.push([line]);
      indent = ' '.repeat(item.width);
    } else if (filled(line) && line.startsWith(indent)) items.at(-1)?.push(line);
    else if (first.ordered && /^[0-9]{1,9}$/.test(line) && lazyAfter(items.at(-1))) {
      // The number of the next item, its delimiter still to come: it goes on the paragraph above until then.
      items.at(-1)?.push(line);
    } else return undefined;
  }
  // A fence open in the last item holds the blank lines after it. A fence may open at any depth of nesting, four
  // columns in or more under a wide marker, after a tab: any run of fence marks keeps them (at the end of the
  // text, blank lines an item does not need change nothing).
  const last = items.at(-1);
  if (last?.some((line) => FENCE_MARKS.test(line))) last.push(...lines.slice(body.length));
  return { type: 'list', ordered: first.ordered, start: first.start, items: items.map((item) => item.join('\n')) };
}

/**
 * A loose list: items of the first item's kind at column 0, a blank line
 * between two of them (which makes every item's paragraphs `<p>`), every
 * other line blank or indented into its item by less than four columns more
 * (no lazy line, no indented code), no quote or task box, and fences only at
 * the column of the item's text, each closed in its item but in the last.
 * Each item is parsed after `loose.leader`, an item of the same kind, and a
 * blank line, so that it is read in a loose list, and ends where the text
 * does, as the last one does in the whole text.
 */
function looseListOf(lines: string[]): MarkdownPiece | undefined {
  const first = listItem(lines[0] ?? '');
  if (!first) return undefined;
  const items: string[][] = [];
  let indent = '';
  let separated = false;
  let fence: { char: string; length: number } | undefined;
  const body = withoutTrailingBlanks(lines);
  for (const line of body) {
    const item = listItem(line);
    if (item?.kind === first.kind) {
      const text = line.slice(item.width);
      // An item would end a fence open in the item above, with the blank lines it holds.
      if (fence || !item.text || text.startsWith('[') || NESTED_START.test(text) || FENCE_MARKS.test(text)) return undefined;
      const above = items.at(-1);
      if (above && !filled(above.at(-1) ?? '')) separated = true;
      items.push([line]);
      indent = ' '.repeat(item.width);
    } else if (fence) {
      if (filled(line) && !line.startsWith(indent)) return undefined;
      const close = /^(`{3,}|~{3,})[ \t]*$/.exec(line.slice(indent.length))?.[1];
      if (close && close[0] === fence.char && close.length >= fence.length) fence = undefined;
      items.at(-1)?.push(line);
    } else if (!filled(line)) items.at(-1)?.push(line);
    else if (line.startsWith(indent) && leadingSpaces(line) < indent.length + 4 && !line.includes('\t')) {
      if (FENCE_MARKS.test(line)) {
        const open = /^(`{3,}|~{3,})(.*)$/.exec(line.slice(indent.length));
        if (!open?.[1] || (open[1][0] === '`' && open[2]?.includes('`'))) return undefined;
        fence = { char: open[1][0] as string, length: open[1].length };
      }
      items.at(-1)?.push(line);
    } else return undefined;
  }
  if (!separated) return undefined;
  // A fence still open in the last item holds the blank lines after it.
  if (fence) items.at(-1)?.push(...lines.slice(body.length));
  return {
    type: 'list',
    ordered: first.ordered,
    start: first.start,
    items: items.map((item, i) => (fence && i === items.length - 1 ? item : withoutTrailingBlanks(item)).join('\n')),
    loose: { leader: first.ordered ? `1${first.kind} x` : `${first.kind} x` },
  };
}

/** Whether a line goes on the paragraph of `item`: an item of one line whose text starts as nothing but a paragraph can. */
function lazyAfter(item: string[] | undefined): boolean {
  const [line, ...more] = item ?? [];
  const marker = line === undefined ? undefined : listItem(line);
  if (!line || !marker || more.length) return false;
  const text = line.slice(marker.width);
  return PLAIN_LINE.test(text) && !LIST_MARKER.test(text);
}

/** The cells of a table row between its pipes (a row's edge pipes are optional). */
function cellsOf(row: string): string[] {
  let inner = trimBlank(row);
  if (inner.startsWith('|')) inner = inner.slice(1);
  if (inner.endsWith('|')) inner = inner.slice(0, -1);
  return inner.split('|');
}

/** A table: a header, a delimiter row with as many cells, then rows that each start with `|`. */
function tableOf(lines: string[]): MarkdownPiece | undefined {
  const [head = '', delimiter = '', ...rest] = withoutTrailingBlanks(lines);
  // Escapes and code spans decide which pipes part cells (and maybe HTML): a header with any renders whole.
  // A delimiter row without a pipe may underline a heading.
  // A delimiter row that is a list item (`- | -`) is one.
  if (!head.startsWith('|') || /[\\`<]/.test(head) || !/^[|:-]/.test(delimiter) || !delimiter.includes('|') || LIST_MARKER.test(delimiter))
    return undefined;
  const cells = cellsOf(delimiter);
  // A header of nothing but pipes is a paragraph.
  if (!trimBlank(cellsOf(head).join(''))) return undefined;
  if (!cells.every((cell) => /^:?-+:?$/.test(trimBlank(cell))) || cellsOf(head).length !== cells.length) return undefined;
  if (!rest.every((row) => row.startsWith('|'))) return undefined;
  // Only the columns and their alignments of the header bear on a row: a row is parsed under a header of those alone.
  const aligns = cells.map((cell) => {
    const mark = trimBlank(cell);
    return `${mark.startsWith(':') ? ':' : ''}-${mark.endsWith(':') ? ':' : ''}`;
  });
  return { type: 'table', head: `${head}\n${delimiter}`, frame: `|${'x|'.repeat(cells.length)}\n|${aligns.join('|')}|`, rows: rest };
}

/** A long one-line paragraph, cut into runs of sentences. */
function paragraphOf(lines: string[]): MarkdownPiece | undefined {
  const block = lines.join('\n');
  const [line = ''] = lines;
  if (lines.filter(filled).length !== 1 || !filled(line) || block.length < 2 * RUN_LENGTH || !plainStart(block)) return undefined;
  const sentences = runsOf(line);
  // The paragraph reads in the direction of its first letter (`dir="auto"`) when it holds one. The runs before
  // the last are plain text, shown as written: a letter there settles it; otherwise it renders whole.
  return sentences.length > 1 && /\p{L}/u.test(sentences.slice(0, -1).join('')) ? { type: 'paragraph', sentences } : undefined;
}

/** The quotes a line opens, each a `>` and one space. */
const QUOTE_PREFIX = /^(?:> )+/;
/**
 * A quote's line of a paragraph: a letter or a digit, also after marks that open quoted speech or an aside (text
 * everywhere), or after emphasis or code marks (`**From:**`; no more than two backticks, which would open a fence).
 */
const QUOTE_LINE = /^(?:[“‘«¿¡"'(]*|[*_]{1,3}|`{1,2})[\p{L}\p{N}]/u;

/**
 * A quote of paragraphs of plain lines, each opening the same quotes, parted
 * by lines of those quotes' marks alone: each paragraph's lines cut into runs.
 */
function quoteOf(lines: string[]): MarkdownPiece | undefined {
  const body = withoutTrailingBlanks(lines);
  const prefix = QUOTE_PREFIX.exec(body[0] ?? '')?.[0];
  if (!prefix) return undefined;
  // A last line of the quotes' marks alone (fewer, or all of them) ends the paragraph and adds nothing.
  const last = body.at(-1) ?? '';
  const texts = body.length > 1 && prefix.startsWith(last) ? body.slice(0, -1) : body;
  /** A line of all the quotes' marks and nothing else: a blank line inside the innermost quote, which ends a paragraph. */
  const parting = (line: string) => line === prefix || line === prefix.trimEnd();
  const paragraphs: string[][] = [];
  let runs: string[] = [];
  let run: string[] = [];
  let runLength = 0;
  let open = false;
  /** Whether each paragraph holds a letter shown as text, by paragraph. */
  const lettered: boolean[] = [];
  /** Whether the runs may be cut after the line above: nothing inline open, and no space at its end (two break the line). */
  let cuttable = false;
  const endParagraph = () => {
    if (run.length) paragraphs.push([...runs, run.join('\n')]);
    runs = [];
    run = [];
    runLength = 0;
    // Nothing inline reaches past the end of a paragraph.
    open = false;
    cuttable = false;
  };
  for (const line of texts) {
    if (parting(line)) {
      endParagraph();
      continue;
    }
    const rest = line.slice(prefix.length);
    if (!line.startsWith(prefix) || !QUOTE_LINE.test(rest) || ORDERED_ITEM.test(rest)) return undefined;
    if (cuttable && runLength >= RUN_LENGTH) {
      runs.push(run.join('\n'));
      run = [];
      runLength = 0;
    }
    if (!run.length && !runs.length) lettered.push(false);
    run.push(rest);
    runLength += rest.length + 1;
    if (!open && !closesWithin(rest)) {
      open = true;
      // What comes before the first mark is shown as written.
      let end = 0;
      while (end < rest.length && !opensInline(rest, end)) end++;
      if (/\p{L}/u.test(rest.slice(0, end))) lettered[lettered.length - 1] = true;
    } else if (!open && /\p{L}/u.test(rest)) lettered[lettered.length - 1] = true;
    cuttable = !open && filled(rest.at(-1) ?? '');
  }
  endParagraph();
  // Each paragraph reads in the direction of its first letter (as paragraphOf), when it holds one: a letter in a line
  // where nothing inline is open, which is shown as text, settles it.
  if (paragraphs.flat().length < 2 || lettered.length !== paragraphs.length || !lettered.every(Boolean)) return undefined;
  return { type: 'quote', depth: prefix.length / 2, paragraphs };
}

/** Whitespace and punctuation, as they decide whether a run of emphasis marks may open or close (ASCII, or a letter, digit or space). */
const WHITESPACE = /^\s$/u;
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const PLAIN_CHARACTER = /^[\p{L}\p{N}\p{Zs}]$/u;
/** What a line's emphasis marks may belong to instead: an autolink (`www.`, `https://`, an email address) takes them into its address. */
const AUTOLINK_LIKE = /www\.|:\/|@|mailto:|xmpp:/i;

/**
 * Whether all the inline markup `line` opens closes within it, read as a
 * paragraph's line after lines that left nothing open: its code spans
 * close on the line, and its emphasis marks (`*`, `_`) pair there, each run
 * of them either opening or closing (not both) and closing the nearest
 * opened run of as many of its marks; no brackets, escapes, strikethrough
 * or entities (`[`, `\`, `~`, `&`), no `<` that may open HTML or an
 * autolink, no autolink near emphasis. A line where
 * this holds leaves nothing open for the lines after it: the paragraph may be
 * cut after it. One pass over the line.
 */
function closesWithin(line: string): boolean {
  const opened: { mark: string; length: number }[] = [];
  let hasMarks = false;
  const kind = (c: string | undefined) => {
    if (c === undefined || WHITESPACE.test(c)) return 'space';
    if (ASCII_PUNCTUATION.test(c)) return 'punctuation';
    return PLAIN_CHARACTER.test(c) ? 'other' : 'unknown';
  };
  for (let i = 0; i < line.length; ) {
    const c = line[i] as string;
    if (c === '[' || c === '\\' || c === '~' || c === '&' || (c === '<' && filled(line[i + 1] ?? ''))) return false;
    if (c !== '`' && c !== '*' && c !== '_') {
      i++;
      continue;
    }
    let end = i;
    while (line[end] === c) end++;
    const length = end - i;
    if (c === '`') {
      // A code span: the next run of exactly as many backticks on this line closes it.
      let close = line.indexOf(c, end);
      while (close !== -1) {
        let closeEnd = close;
        while (line[closeEnd] === c) closeEnd++;
        if (closeEnd - close === length) break;
        close = line.indexOf(c, closeEnd);
      }
      if (close === -1) return false;
      i = close + length;
      continue;
    }
    hasMarks = true;
    const before = kind(line[i - 1]);
    const after = kind(line[end]);
    if (before === 'unknown' || after === 'unknown') return false;
    const left = after !== 'space' && (after !== 'punctuation' || before !== 'other');
    const right = before !== 'space' && (before !== 'punctuation' || after !== 'other');
    if (left && right) return false;
    if (left) opened.push({ mark: c, length });
    else if (right) {
      let k = opened.length - 1;
      while (k >= 0 && opened[k]?.mark !== c) k--;
      if (k >= 0) {
        if (opened[k]?.length !== length) return false;
        opened.length = k;
      }
    }
    i = end;
  }
  return !opened.length && !(hasMarks && AUTOLINK_LIKE.test(line));
}

/**
 * A quote of any blocks, every line of it opening it (`> ` or `>` alone, no
 * lazy line): what it holds is a text of its own, those marks dropped, cut
 * into pieces as a reply is (a quoted list into its items). The quote is
 * drawn once around them.
 */
function quotedOf(lines: string[]): MarkdownPiece | undefined {
  const inner: string[] = [];
  for (const line of withoutTrailingBlanks(lines)) {
    // A tab's width depends on its column, which dropping the marks shifts.
    if (line === '>') inner.push('');
    else if (line.startsWith('> ') && !line.includes('\t')) inner.push(line.slice(2));
    else return undefined;
  }
  // A blank line at the end of the quote is in it (a fence open there holds it, and one of spaces after it makes a list
  // loose), where the end of a text holds none: one line of the quote's mark alone (a line streaming in) is left out.
  const body = inner.at(-1) === '' ? inner.slice(0, -1) : inner;
  // A line left out after one of inner quotes' marks alone (`> >` then `>`) is a second blank line in those quotes,
  // which makes a list above loose: kept, the quote renders whole.
  const dropped = body.length < inner.length;
  if (!filled(body.at(-1) ?? '') || (dropped && (body.some((line) => FENCE_MARKS.test(line)) || /^[> ]*$/.test(body.at(-1) ?? ''))))
    return undefined;
  const text = body.join('\n');
  // A table too large shows as the text it is, quotes' marks and all, as the whole text does.
  if (tableTooLarge(text)) return undefined;
  const pieces = markdownPieces(text, 0);
  // A list followed by a blank line in a quote is loose where a block after it opens another list or quote, and tight
  // where it ends a text: only the last piece may hold one, and no blank line with it.
  const last = pieces?.at(-1);
  if (
    !pieces ||
    !last ||
    pieces.slice(0, -1).some(holdsList) ||
    (last.type === 'list' && last.loose) ||
    (last.type === 'blocks' && holdsList(last) && last.text.split('\n').some((line) => !filled(line)))
  )
    return undefined;
  // One block whole would be parsed whole all the same.
  return pieces.length === 1 && last.type === 'blocks' ? undefined : { type: 'quoted', pieces };
}

/** A line that may open a list item, within quotes or indented. */
const LIST_LINE = /^[ \t>]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)/m;

/** Whether a piece may hold a list. */
function holdsList(piece: MarkdownPiece): boolean {
  if (piece.type === 'list') return true;
  if (piece.type === 'blocks') return LIST_LINE.test(piece.text);
  return piece.type === 'quoted' && piece.pieces.some(holdsList);
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
    if (opensInline(line, i)) break;
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
 * thousand `![` take seconds. So does a text of more underlined headings
 * (`Title` then `===` or `---`) than MAX_UNDERLINE_COST over its length
 * (and than 100): each rebuilds the parser's list of all the events before it, so 4,000
 * of them in 16 KB took 7 s. No reply a person reads is written so; one
 * that is shows as the text it is. One pass, no backtracking.
 */
export function nestsTooDeep(text: string): boolean {
  const most = Math.max(MIN_UNDERLINES, MAX_UNDERLINE_COST / text.length);
  let underlines = 0;
  let above = false;
  return someLineOutsideFences(text, (line, last) => {
    // A line of `=` or `-` alone under one that is not blank may underline it (in a quote, or a list item's text); the
    // last line may still grow into something else (`-` into `- a`), and counts once a line follows it, so that a
    // streaming reply does not turn to text for a token and back.
    if (above && !last && UNDERLINE.test(line) && ++underlines > most) return true;
    above = filled(line);
    return lineTooDeep(line);
  });
}

/** A line that may underline a heading, after what may be the marks of quotes and an indent. */
const UNDERLINE = /^[ \t>]*(?:=+|-+)[ \t]*$/;
/**
 * The most underlined headings a text may hold times its length: about a
 * second's parse (100 in 100 KB, 1,000 in 10 KB). A text of more streams in
 * pieces, parsed one by one: it may hold 100 whatever its length.
 */
const MAX_UNDERLINE_COST = 10_000_000;
const MIN_UNDERLINES = 100;

/** A line of a fence's marks alone, however far in. */
const INDENTED_CLOSE = /^[ \t]+(`{3,}|~{3,})[ \t]*$/;

/**
 * Whether `test` holds for a line of `text` outside fenced code, the lines
 * read in order; each fenced code block that surely holds its lines is read
 * as one blank line (code opens nothing, and ends a table above it). A
 * fence holds its lines only where no line above it outside fenced code may
 * open an HTML block (a fence in one, `<!--` or `<div>`, is text of that
 * block, which ends without it; a `<` within a line is inline HTML at most,
 * which a fence interrupts, and one in code is code); one opened indented
 * after a list item may be in that item, and ends with it, at a line less
 * indented, or closes on its marks up to three columns past where they
 * opened (up to three columns into the item's text), and so does one opened
 * on an item's line (`- ````). One opened in quotes at column 0
 * (`> ```md`) holds what the lines that open as many quotes hold, and ends
 * at a line that opens fewer (code has no lazy lines). A fence closes on a
 * line of at least as many of its own marks and nothing after them
 * (`` ```js `` in a fence is code). A line that may open a fence in other
 * containers (`   > ````, `> - ````, four columns in) holds no fence from
 * there on: its closing line would read as opening one. Wherever in doubt,
 * a line is read as no code: it is tested. The test learns whether a line
 * is the text's last, which may still grow. One pass.
 */
function someLineOutsideFences(text: string, test: (line: string, last: boolean) => boolean): boolean {
  let fencesHold = true;
  let fence = '';
  let fenceIndent = 0;
  /** How many quotes hold the open fence: its lines are what each of them holds. */
  let fenceQuotes = 0;
  let afterItem = false;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (fence) {
      const quotes = quotesOf(line, fenceQuotes);
      // A line that leaves a quote holding the fence ends both (code has no lazy lines), and so, in doubt, does one
      // whose quote's mark a tab follows (how much of it the quote takes depends on its column).
      if (quotes.depth === fenceQuotes && !quotes.tabbed) {
        const inner = line.slice(quotes.at);
        const found = FENCE.exec(inner);
        const [, , marker = '', rest = ''] = found ?? [];
        const inItem = fenceIndent > 0 && afterItem;
        if (!(inItem && filled(inner) && leadingSpaces(inner) < fenceIndent)) {
          // In a list item, a fence closes up to three columns into the item's text: more than three spaces in, maybe,
          // but not more than three past the fence's own marks, which are at most that far into the item's text.
          const close = found ? marker : inItem && leadingSpaces(inner) <= fenceIndent + 3 ? (INDENTED_CLOSE.exec(inner)?.[1] ?? '') : '';
          if (close[0] === fence[0] && close.length >= fence.length && (!found || BLANK.test(rest))) fence = '';
          continue;
        }
      }
      // The quote or the list item that held the fence ends here, and the fence with it.
      fence = '';
    }
    if (fencesHold && line.includes('<') && HTML_LINE.test(line)) fencesHold = false;
    // Only quotes at column 0, one right after the other, surely open the line: `   > ` or `>   > ` may be in a list item.
    const quotes = line[0] === '>' ? quotesAtStart(line) : NO_QUOTES;
    const inner = line.slice(quotes.at);
    const found = FENCE.exec(inner);
    if (found && fencesHold && opensFence(inner, found[1]?.length ?? 0)) {
      fence = found[2] ?? '';
      fenceIndent = found[1]?.length ?? 0;
      fenceQuotes = quotes.depth;
      // What the line opens besides the code, which opens nothing: its quotes.
      if (test(line.slice(0, quotes.at), start > text.length)) return true;
      continue;
    }
    const itemFence = fencesHold && FENCE_MARKS.test(line) ? fenceInItem(line) : undefined;
    if (itemFence && !itemFence.quoted) {
      // A fence opened on a list item's line (`- ````, `1. ```bash`): its item's text starts where its marks do.
      fence = itemFence.char.repeat(itemFence.length);
      fenceIndent = itemFence.indent;
      fenceQuotes = 0;
      afterItem = true;
    } else if (fencesHold && FENCE_MARKS.test(line) && mayOpenFence(line)) {
      // Any other line that may open a fence (in a list item and a quote, `> - ````, `- > ````; in a quote indented,
      // `   > ````, which may be in a list item; four columns in) ends where its containers do, which only they tell,
      // and its closing line would read as one that opens a fence: no line is code from here.
      fencesHold = false;
    }
    if (LIST_MARKER.test(inner)) afterItem = true;
    if (test(line, start > text.length)) return true;
  }
  return false;
}

const NO_QUOTES = { depth: 0, at: 0, tabbed: false };

/** A fence's marks after what may be the marks of quotes and list items and an indent, and what follows them. */
const FENCE_LIKE = /^[ \t>*+.)0-9-]*(`{3,}|~{3,})(.*)$/s;

/** Whether `line` may open a fence in some container: its marks, after what may be containers, and no backtick after backticks. */
function mayOpenFence(line: string): boolean {
  const [, run = '', rest = ''] = FENCE_LIKE.exec(line) ?? [];
  return run !== '' && !(run[0] === '`' && rest.includes('`'));
}

/** The quotes `line` opens at column 0, each `>` right after the one before and its one space (`> > `, `>>`). */
function quotesAtStart(line: string): { depth: number; at: number; tabbed: boolean } {
  let depth = 0;
  let at = 0;
  while (line[at] === '>') {
    depth++;
    at += line[at + 1] === ' ' ? 2 : 1;
  }
  return { depth, at, tabbed: false };
}

/**
 * The first `most` quotes `line` opens (each a `>` after up to three spaces,
 * and the one space after it): how many, where what they hold starts, and
 * whether a tab follows a mark (then what they hold starts at that tab).
 */
function quotesOf(line: string, most: number): { depth: number; at: number; tabbed: boolean } {
  let depth = 0;
  let at = 0;
  while (depth < most) {
    let i = at;
    while (i - at < 3 && line.charCodeAt(i) === 32) i++;
    if (line[i] !== '>') break;
    i++;
    depth++;
    if (line[i] === '\t') return { depth, at: i, tabbed: true };
    if (line[i] === ' ') i++;
    at = i;
  }
  return { depth, at, tabbed: false };
}

function lineTooDeep(line: string): boolean {
  let depth = 0;
  let columns = 0;
  let leading = true;
  let brackets = 0;
  let marks = 0;
  const spans = line.includes('`') ? codeSpansOf(line) : undefined;
  // Where the code span the scan is in ends: an escaped mark, or one in a code span (`*.ts`, a glob of stars),
  // pairs with nothing. (Brackets are counted everywhere: a backtick in an HTML tag opens no code span.)
  let codeEnd = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 91 /* [ */ && ++brackets > MAX_MARKDOWN_NESTING) return true;
    if (c === 93 /* ] */ && brackets > 0) brackets--;
    if (i >= codeEnd) {
      if (c === 96 /* ` */) {
        // A run no run as long closes is text; its backticks are passed one by one.
        const spanEnd = spans?.get(i);
        if (spanEnd !== undefined) codeEnd = spanEnd;
      } else if (c === 92 /* \ */) codeEnd = i + 2;
      else if (isMark(c) && ++marks > MAX_LINE_DELIMITERS) return true;
    }
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

/**
 * Where each code span of a line ends, by where it opens: a run of backticks
 * is closed by the next run as long (one pass, from the end of the line).
 */
function codeSpansOf(line: string): Map<number, number> {
  const runs: [start: number, end: number][] = [];
  for (let i = line.indexOf('`'); i !== -1; i = line.indexOf('`', i)) {
    let end = i;
    while (line.charCodeAt(end) === 96) end++;
    runs.push([i, end]);
    i = end;
  }
  const spans = new Map<number, number>();
  const nextOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const [start, end] = runs[k] as [number, number];
    const closer = nextOfLength.get(end - start);
    if (closer !== undefined) spans.set(start, closer);
    nextOfLength.set(end - start, end);
  }
  return spans;
}

const isMark = (c: number) => c === 42 /* * */ || c === 95; /* _ */

const isBlank = (c: number) => c === 32 || c === 9 || c === 10 || Number.isNaN(c);

/**
 * The most list items a text may hold and be read as Markdown to be said
 * (`markdownToText`): the parser takes time that grows with the square of a
 * list's items when each holds a list of its own (0.8 s at 10 KB, 12-15 s
 * at 40 KB).
 */
export const MAX_SPOKEN_LIST_ITEMS = 1_000;

/** A list item's marker, where a line's quotes and indent end. */
const ITEM_MARKER = /^(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)/;

/**
 * Whether `text` (outside fenced code that surely holds its lines) has more
 * than MAX_SPOKEN_LIST_ITEMS lines that start a list item, in a quote or
 * indented or not: a count that may run over the parser's (an item's text),
 * never under. Not counted: a thematic break (`- - -`), and a line four
 * columns in where no list may be open (none began yet, or a line at column
 * 0 after a blank line ended it), which is code or a paragraph's text. One
 * pass.
 */
export function listItemsTooMany(text: string): boolean {
  let items = 0;
  let inList = false;
  let blankBefore = false;
  return someLineOutsideFences(text, (line) => {
    const blank = !filled(line);
    const lead = CONTAINER_LEAD.exec(line)?.[0] ?? '';
    const inner = line.slice(lead.length);
    let columns = 0;
    for (const c of lead) {
      if (c === ' ') columns++;
      else if (c === '\t') columns += 4 - (columns % 4);
      else break;
    }
    if (!blank && blankBefore && columns === 0) inList = false;
    blankBefore = blank;
    if (!ITEM_MARKER.test(inner) || THEMATIC_BREAK.test(inner) || (columns >= 4 && !inList)) return false;
    inList = true;
    return ++items > MAX_SPOKEN_LIST_ITEMS;
  });
}

/**
 * The most cells a table may hold (its columns times its rows, the header's
 * among them) and be rendered as one: remark-gfm parses a cell in tens of
 * microseconds and React makes an element of each, so 1,000 cells render in
 * about 0.1 s, and an 88 KB table of 40,000 took 4–7 s.
 */
export const MAX_TABLE_CELLS = 1_000;

/**
 * A line that may be a table's delimiter row, its quotes and indent dropped: pipes, colons, dashes and blanks.
 * (No dash before the first: a class that takes one too would backtrack over every dash of a line that fails.)
 */
const DELIMITER_LIKE = /^[|: \t]*-[|:\- \t]*$/;
/** What a line of a quote or a list item's table starts with, before the table's own text. */
const CONTAINER_LEAD = /^[ \t>]*/;

/** Marks that close what may have opened lines above: a code span, an HTML tag. */
const CLOSES_ABOVE = /[`<>]/;
/** Marks that close a link's or a definition's title, which may have opened lines above. */
const CLOSES_TITLE = /[)"']/;

/**
 * Whether `text`, `before` with more on its last line, may read its earlier
 * lines otherwise than `before` did: what it adds may close a code span, an
 * HTML tag or a title opened above (their marks are then not emphasis), or
 * its last line may be, or have been, a table's delimiter row (the line
 * above is then a table's head, or no longer). Anything else on the last
 * line leaves the lines above as they were.
 */
export function lastLineMayReread(before: string, text: string): boolean {
  const added = text.slice(before.length);
  if (CLOSES_ABOVE.test(added)) return true;
  if (CLOSES_TITLE.test(added) && (text.includes('](') || text.includes(']:'))) return true;
  const lastLine = (t: string) => t.slice(t.lastIndexOf('\n') + 1).replace(CONTAINER_LEAD, '');
  return DELIMITER_LIKE.test(lastLine(before)) || DELIMITER_LIKE.test(lastLine(text));
}

/**
 * Whether a table of `text` (outside fenced code that surely holds it) holds more than
 * MAX_TABLE_CELLS cells: counted without parsing, from a delimiter row (a
 * line of dashes, colons and pipes under a line with a pipe, or holding one)
 * and its columns, times the lines that follow it up to a blank line. A
 * count that may run over what the parser makes of it (a quote or list item
 * around the table, rows a block ends), never under. One pass.
 */
export function tableTooLarge(text: string): boolean {
  if (!text.includes('|')) return false;
  let above = '';
  let columns = 0;
  let cells = 0;
  // A fenced code block reads as a blank line: it ends the table above it.
  return someLineOutsideFences(text, (line) => {
    const inner = line.replace(CONTAINER_LEAD, '');
    if (columns) {
      if (inner) {
        cells += columns;
        return cells > MAX_TABLE_CELLS;
      }
      columns = 0;
    }
    if (above && (inner.includes('|') || above.includes('|')) && DELIMITER_LIKE.test(inner)) {
      columns = inner.split('|').filter((cell) => filled(cell)).length;
      cells = columns;
      if (cells > MAX_TABLE_CELLS) return true;
    }
    above = inner;
    return false;
  });
}

/**
 * The most characters the parser may go over again, in all, in one stretch
 * of lines between blank lines (outside fenced code), for its runs of
 * backticks: a run that no later run as long closes is followed to the end
 * of its paragraph, once for each length (runs of 1 to 400 backticks in
 * 81 KB took 7 s).
 */
const MAX_RESCAN = 2_000_000;
/**
 * The most steps back, in all, the `]` of a paragraph that no `[` opened
 * may take: each goes back over what the parser read of its paragraph
 * before it, about a step a word, a mark or a line (3,000 lines of `a]`
 * took 2 s, 20,000 over half a minute; this many, at most about half a
 * second). A list item's paragraph is its own: a list of thousands of such
 * items costs no more than its text.
 */
const MAX_LOOK_BACK = 4_000_000;

/** A list item that ends the paragraph above it, after what may be quotes: a bullet, or any number after an item of the same list. */
const ITEM_AT_START = /^((?: {0,3}> ?)*)( {0,3})(?:[-*+]|([0-9]{1,9})([.)]))[ \t]+\S/;
/** A last line that may still grow into a fence's line or a list item's, whose count is known once it has. */
const MAY_GROW_INTO_BLOCK = /^[ \t>*+.)0-9-]*(?:`*|~*)$/;
const isWordCharacter = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiPunctuation = (c: number) => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/**
 * Whether a stretch of `text` makes the parser go over its text again more
 * than it may: the lengths of its runs of backticks times its length (over
 * MAX_RESCAN), or, for each `]` no `[` before it in its paragraph opened,
 * the steps before it there (over MAX_LOOK_BACK): a step each word (a run
 * of ASCII letters and digits), each ASCII mark and each line. A list item
 * starts a paragraph where it surely does: a bullet, the number 1, or a
 * number after an item of the same kind in the same quotes (anything else
 * may go on with the paragraph above). A count that may run over the
 * parser's, never under, and that only grows as a text does: the last line
 * counts a run of backticks at its end, and the line itself while it may
 * still become a fence or a list item, once it has grown past them. One
 * pass.
 */
export function rescansTooMuch(text: string): boolean {
  if (!text.includes('`') && !text.includes(']')) return false;
  let stretch = 0;
  let lengths = new Set<number>();
  /** The `[` the paragraph holds still open, the steps it has taken so far, the steps back its `]` take. */
  let opened = 0;
  let steps = 0;
  let lookedBack = 0;
  /** The quotes and the marker of the last numbered item of the stretch, whose list a like number goes on. */
  let numbered: string | undefined;
  return someLineOutsideFences(text, (line, last) => {
    if (!filled(line)) {
      stretch = 0;
      lengths = new Set();
      opened = 0;
      steps = 0;
      numbered = undefined;
      return false;
    }
    if (last && MAY_GROW_INTO_BLOCK.test(line)) return false;
    const item = ITEM_AT_START.exec(line);
    if (item) {
      const [, quotes = '', indent = '', number, delimiter] = item;
      const kind = number === undefined ? undefined : `${quotes}${indent}${delimiter}`;
      // A line that goes on with the paragraph above opens no list whose numbers a later line could go on with.
      const starts = number === undefined || number === '1' || kind === numbered;
      if (starts) {
        opened = 0;
        steps = 0;
      }
      numbered = starts ? kind : undefined;
    }
    let inWord = false;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      const word = isWordCharacter(c);
      if (word && !inWord) steps++;
      inWord = word;
      if (word || !isAsciiPunctuation(c)) continue;
      steps++;
      if (c === 92 /* \ */) i++;
      else if (c === 91 /* [ */) opened++;
      else if (c === 93 /* ] */) {
        if (opened) opened--;
        else lookedBack += steps;
      } else if (c === 96 /* ` */) {
        let end = i;
        while (line.charCodeAt(end) === 96) end++;
        // A run at the text's end may grow into another length.
        if (!(last && end === line.length)) lengths.add(end - i);
        i = end - 1;
      }
    }
    steps++;
    stretch += line.length + 1;
    return lengths.size * stretch > MAX_RESCAN || lookedBack > MAX_LOOK_BACK;
  });
}

/** The most footnotes a text may define: each costs the parser more than a paragraph (3,000 took 5 s). */
export const MAX_FOOTNOTES = 500;
/** A line that may define a footnote (`[^1]:`), after what may be the marks of quotes and list items. */
const FOOTNOTE_LINE = /^[ \t>*+.)0-9-]*\[\^[^\]]*\]:/;

/** Whether `text` (outside fenced code that surely holds its lines) has more than MAX_FOOTNOTES lines that may define a footnote. One pass. */
export function footnotesTooMany(text: string): boolean {
  if (!text.includes('[^')) return false;
  let count = 0;
  return someLineOutsideFences(text, (line) => FOOTNOTE_LINE.test(line) && ++count > MAX_FOOTNOTES);
}
