/**
 * `describe`, apart from the diagnostics' builders (diagnostics.ts, code of
 * the engine alone): a message's shape (messageShape.ts) is checked in the
 * first load too.
 */

/** Short, safe rendering of a value for a diagnostic message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
