/**
 * Reads JSON lines: each non-blank line parsed and handed to `take` with its
 * line number, which returns a problem to report or nothing. A line that is
 * not JSON is reported; nothing throws. A leading byte order mark is skipped.
 */
export function readJsonLines(text: string, take: (value: unknown) => string | undefined): { line: number; message: string }[] {
  const errors: { line: number; message: string }[] = [];
  // A byte order mark (an editor on Windows writes one) is not part of the first line.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  body.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      errors.push({ line: i + 1, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    const problem = take(value);
    if (problem) errors.push({ line: i + 1, message: problem });
  });
  return errors;
}
