/**
 * Reads JSON lines: each non-blank line parsed and handed to `take` with its
 * line number, which returns a problem to report or nothing. A line that is
 * not JSON is reported; nothing throws.
 */
export function readJsonLines(text: string, take: (value: unknown) => string | undefined): { line: number; message: string }[] {
  const errors: { line: number; message: string }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
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
