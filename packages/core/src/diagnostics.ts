import type { Diagnostic } from './model.js';

/** Builds an error diagnostic. */
export function error(index: number, eventType: string | undefined, code: string, message: string): Diagnostic {
  return eventType === undefined ? { index, code, message, severity: 'error' } : { index, eventType, code, message, severity: 'error' };
}

/** Builds a warning diagnostic. */
export function warning(index: number, eventType: string | undefined, code: string, message: string): Diagnostic {
  return eventType === undefined ? { index, code, message, severity: 'warning' } : { index, eventType, code, message, severity: 'warning' };
}
