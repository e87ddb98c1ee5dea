import {
  createEventPipeline,
  createThreadState,
  type LoggedEvent,
  parseEventLog,
  serializeEventLog,
  type ThreadState,
} from '@aguikit/core';

/** Offers the session's raw events as a JSON-lines file. */
export function downloadLog(entries: readonly LoggedEvent[], name: string): void {
  const blob = new Blob([serializeEventLog(entries)], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface LoadedLog {
  name: string;
  entries: LoggedEvent[];
  /** Lines that could not be read. */
  errors: { line: number; message: string }[];
}

export async function readLogFile(file: File): Promise<LoadedLog> {
  const parsed = parseEventLog(await file.text());
  return { name: file.name, ...parsed };
}

/**
 * The thread after each event of a log, computed once with one pipeline (so
 * chunk streams and run rules carry across events) and kept: states share
 * structure, so scrubbing to any point costs nothing.
 */
export function statesOf(entries: readonly LoggedEvent[], threadId?: string): ThreadState[] {
  const pipeline = createEventPipeline(createThreadState(threadId === undefined ? {} : { threadId }));
  const states: ThreadState[] = [pipeline.state];
  for (const entry of entries) states.push(pipeline.push(entry.event));
  // The last state is the log's end: a run still open there was cut off.
  states[states.length - 1] = pipeline.end();
  return states;
}
