/**
 * Story support: how play functions wait, so they hold on a busy machine (CI
 * runs the stories on two cores, beside Vite serving them). Not part of the
 * package's API.
 */

/**
 * The timeout of a wait for what comes after real work: a chunk loaded on
 * demand, a deferred replay of the log, a long list laid out or filtered, a
 * run's round trip, an announcement said once its panel rests (400 ms). On a
 * loaded two-core machine any of these can take seconds, far past the 1 s
 * that `findBy*` and `waitFor` wait by default; 10 s is still well inside the
 * storybook project's testTimeout (45 s). A wait returns as soon as its
 * condition holds, so this costs a passing story nothing, and a condition
 * that never holds still fails it.
 *
 * @example
 * await canvas.findByRole('region', { name: /STATE_DELTA/ }, LONG_WAIT);
 * await waitFor(() => expect(row).toHaveAttribute('aria-selected', 'true'), LONG_WAIT);
 */
export const LONG_WAIT = { timeout: 10_000 } as const;

/** A point a live story's stream stops at until its play function has seen what comes before it. */
export interface PlayGate {
  /** Resolves once the gate is open. */
  opened: Promise<void>;
  /** Opens the gate (again: nothing more). */
  open: () => void;
}

/**
 * A gate for a story whose stream plays in real time: the play function
 * opens it once it has checked the state the stream shows before the gate
 * (a reply still streaming, say), so a busy machine, which may take longer
 * to mount the story than the stream takes to end, cannot make the play
 * function look too late. A docs page runs no play function: there the gate
 * is open from the start and the stream plays through.
 *
 * @example
 * loaders: [async ({ viewMode }) => {
 *   const gate = playGate(viewMode);
 *   return { gate, store: await openRunStore(events, { live: true, delayMs: 45, gate: { at: events.length - 1, opened: gate.opened } }) };
 * }],
 */
export function playGate(viewMode: string): PlayGate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  if (viewMode === 'docs') open();
  return { opened, open };
}
