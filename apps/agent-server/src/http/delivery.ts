/**
 * Whether a client has read the end of the runs begun on this server, where
 * their interrupts are raised. A run's end counts as read once a stream of
 * it sent it with its client still there (the first stream, a retry, a
 * reconnect with Last-Event-ID). A run whose every client went before its end
 * (Stop, a closed tab) raised interrupts that no one saw: a new message on
 * the thread may cancel them (`unseen`) rather than wait for answers no
 * client can give. Kept in memory for the newest runs; that a run's end was
 * read is also written to storage (`onRead`, for a run that raised
 * interrupts, or one begun before a restart or on another instance), so a
 * restart, or another instance, knows it too (see `unreadElsewhere` in app.ts).
 */
export interface Delivery {
  /** A run begun here, and the ids of the interrupts its end raises. */
  begun(runId: string, interruptIds: readonly string[]): void;
  /** A client started reading the run. */
  opened(runId: string): void;
  /** That client went (or its stream ended); `readEnd`: it was sent the run's end while still there. */
  closed(runId: string, readEnd: boolean): void;
  /** Whether each of `interruptIds` was raised by a run begun here whose end no client read, and which no client is reading. */
  unseen(interruptIds: readonly string[]): boolean;
  /** Whether the run was begun here (among the newest remembered): what `unseen` says of it is this server's own knowledge. */
  knows(runId: string): boolean;
}

/** Runs remembered at most (the oldest forgotten first): far more than are read at once, a bound all the same. */
const MAX_RUNS = 10_000;

export function createDelivery(maxRuns = MAX_RUNS, onRead: (runId: string) => void = () => {}): Delivery {
  const runs = new Map<string, { reading: number; read: boolean; interrupts: readonly string[] }>();
  const raisedBy = new Map<string, string>();
  return {
    begun(runId, interruptIds) {
      runs.set(runId, { reading: 0, read: false, interrupts: interruptIds });
      for (const id of interruptIds) raisedBy.set(id, runId);
      for (const [oldest, run] of runs) {
        if (runs.size <= maxRuns) break;
        runs.delete(oldest);
        for (const id of run.interrupts) raisedBy.delete(id);
      }
    },
    opened(runId) {
      const run = runs.get(runId);
      if (run) run.reading++;
    },
    closed(runId, readEnd) {
      const run = runs.get(runId);
      // Written once per run whose interrupts a client saw; a run not begun here may have raised some.
      if (readEnd && (!run || (!run.read && run.interrupts.length > 0))) onRead(runId);
      if (!run) return;
      run.reading = Math.max(0, run.reading - 1);
      if (readEnd) run.read = true;
    },
    knows: (runId) => runs.has(runId),
    unseen(interruptIds) {
      return (
        interruptIds.length > 0 &&
        interruptIds.every((id) => {
          const run = runs.get(raisedBy.get(id) ?? '');
          return run !== undefined && run.reading === 0 && !run.read;
        })
      );
    },
  };
}
