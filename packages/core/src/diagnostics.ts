import type { Diagnostic } from './model.js';

/** Builds an error diagnostic. */
export function error(index: number, eventType: string | undefined, code: string, message: string): Diagnostic {
  return eventType === undefined ? { index, code, message, severity: 'error' } : { index, eventType, code, message, severity: 'error' };
}

/** Builds a warning diagnostic. */
export function warning(index: number, eventType: string | undefined, code: string, message: string): Diagnostic {
  return eventType === undefined ? { index, code, message, severity: 'warning' } : { index, eventType, code, message, severity: 'warning' };
}

/** Short, safe rendering of a value for a diagnostic message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
