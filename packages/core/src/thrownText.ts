/**
 * What a thrown value says, as text, whatever was thrown: an Error's message,
 * else the value as `String` writes it, else as JSON (a null-prototype object,
 * which some validation libraries throw, has no `String`), else a note that
 * it has no text. Never throws: it is called where a failure is being told.
 *
 * @example
 * thrownText(Object.assign(Object.create(null), { issues: ['id is required'] })); // '{"issues":["id is required"]}'
 */
export function thrownText(thrown: unknown): string {
  try {
    return thrown instanceof Error ? String(thrown.message) : String(thrown);
  } catch {
    try {
      return JSON.stringify(thrown) ?? 'a value with no text';
    } catch {
      return 'a value with no text';
    }
  }
}
