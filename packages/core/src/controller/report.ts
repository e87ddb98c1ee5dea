/**
 * An application's callback (a listener, `onEvent`, `onDiagnostic`,
 * `onDecision`) that throws has a bug of its own: the error is reported as
 * an exception of the page (`reportError`, as the DOM does for an event
 * listener; thrown from a fresh task where there is none), and the
 * controller goes on. The run never fails, and no event is dropped, for it.
 */
export function reportThrown(error: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else
    setTimeout(() => {
      throw error;
    }, 0);
}

/** Calls an application's `callback`; what it throws is reported (`reportThrown`), never thrown into the caller. */
export function tellApp<A extends unknown[]>(callback: (...args: A) => void, ...args: A): void {
  try {
    callback(...args);
  } catch (e) {
    reportThrown(e);
  }
}

/** `callback` as one that never throws into its caller (see `tellApp`). */
export const guarded =
  <A extends unknown[]>(callback: (...args: A) => void) =>
  (...args: A): void =>
    tellApp(callback, ...args);
