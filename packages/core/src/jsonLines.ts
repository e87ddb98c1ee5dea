/**
 * Reads JSON lines: each non-blank line parsed and handed to `take` with its
 * line number, which returns a problem to report or nothing. A line that is
 * not JSON is reported; nothing throws. A leading byte order mark is skipped;
 * a line ends with LF, CRLF or CR alone.
 * A text that is one JSON array is read item by item instead, each numbered
 * from 1 as a line would be; one that opens an array but is no whole one (cut
 * off as it was written) is read as lines, its brackets and each line's
 * trailing comma aside, so the items written one a line before the cut are kept.
 */
export function readJsonLines(text: string, take: (value: unknown) => string | undefined): { line: number; message: string }[] {
  const errors: { line: number; message: string }[] = [];
  // A byte order mark (an editor on Windows writes one) is not part of the first line.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const items = wholeArray(body);
  if (items) {
    items.forEach((item, i) => {
      const problem = take(item);
      if (problem) errors.push({ line: i + 1, message: `item ${i + 1}: ${problem}` });
    });
    return errors;
  }
  let opening = /^\s*\[/.test(body);
  const inArray = opening;
  // CRLF, LF or a CR alone (an old Mac editor): a JSON text holds no raw CR or LF of its own, only escaped ones.
  body.split(/\r\n|\r|\n/).forEach((line, i) => {
    let text = line;
    if (inArray) {
      text = arrayLine(line, opening);
      if (line.trim() !== '') opening = false;
    }
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      errors.push({ line: i + 1, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    const problem = take(value);
    if (problem) errors.push({ line: i + 1, message: problem });
  });
  return errors;
}

/**
 * The items of a text that is one JSON array (a stream saved by a tool that
 * writes JSON rather than JSON lines); undefined for anything else.
 */
function wholeArray(body: string): unknown[] | undefined {
  if (!/^\s*\[/.test(body)) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A line of an array written one item a line: its item, without the comma
 * after it (and, on the `first` line, the bracket that opens the array);
 * nothing for a bracket alone.
 */
function arrayLine(line: string, first: boolean): string {
  const text = line.trim();
  if (text === '[' || text === ']') return '';
  const item = first && text.startsWith('[') && !isJson(text) ? text.slice(1) : text;
  return item.endsWith(',') ? item.slice(0, -1) : item;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
