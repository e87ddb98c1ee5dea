/**
 * An application's function (a listener, `onEvent`, `onDiagnostic`,
 * `onDecision`, its `scheduler` or `now`) that throws has a bug of its own:
 * the error is reported as an exception of the page (`reportError`, as the
 * DOM does for an event listener), or logged with `console.error` where there
 * is none (Node 20: a server process is not brought down for it), and the
 * controller goes on. The run never fails, and no event is dropped, for it.
 */
export function reportThrown(error: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('aguikit: a function the application gave the controller threw; the controller went on.', error);
}

/** Calls an application's `callback`; what it throws is reported (`reportThrown`), never thrown into the caller. */
export function tellApp<A extends unknown[]>(callback: (...args: A) => void, ...args: A): void {
  try {
    callback(...args);
  } catch (e) {
    reportThrown(e);
  }
}

/**
 * The clock a controller reads: the app's `now` when it gave one, guarded
 * (a clock that throws or gives no finite time is reported, and the system's
 * time used), else `Date.now`.
 */
export function appClock(now: () => (() => number) | undefined): () => number {
  return () => {
    const read = now();
    if (!read) return Date.now();
    try {
      const time = read();
      // A Date holds ±8.64e15 ms: past that, a decision's time could not be written down.
      if (Number.isFinite(time) && Math.abs(time) <= 8.64e15) return time;
      reportThrown(
        new TypeError(`aguikit: the now() the application gave returned ${String(time)}, not a time in ms; the system's time is used.`),
      );
    } catch (e) {
      reportThrown(e);
    }
    return Date.now();
  };
}

/**
 * A copy for the app's listener, so what it changes is its own; a value
 * `structuredClone` cannot copy (a function an in-process agent put in an
 * event) is handed over as it is, rather than kept from the listener.
 */
export function copyOf<T>(value: T): T {
  // An event of strings and numbers only (nearly every one: a token, a tool call's part) is copied by a spread, a
  // tenth of what structuredClone costs per event.
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    let flat = true;
    for (const key in value) if (typeof value[key] === 'object' && value[key] !== null) flat = false;
    if (flat) return { ...value };
  }
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
