import {
  createRecording,
  loadEngine,
  type ParsedSession,
  type PrepareOptions,
  parseSession,
  type Recording,
  type SessionEntry,
  serializeSession,
} from '@aguikit/core';

/**
 * Offers the session (every agent event and every client entry, as far as
 * the log had grown when asked) as a JSON-lines file.
 */
export async function downloadSession(entries: readonly SessionEntry[], name: string): Promise<void> {
  // As parts: a session longer than a string can be is written all the same. In slices: a million entries would hold
  // the page for seconds.
  const parts = await serializeSession(entries, { parts: true, inSlices: true });
  const blob = new Blob(parts, { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file read as a session: its name, the entries it holds, what could not be read of it, and its recording. */
export interface LoadedSession extends ParsedSession {
  name: string;
  /** The entries as a recording, read through: the scrubber's every step starts from one of its checkpoints. */
  recording: Recording;
}

/**
 * Reads a saved session (or an event log of an earlier version: its lines are
 * agent events), with the engine loaded, and reads its recording through in
 * slices (`onProgress` hears how far), so that a long file does not hold the
 * page for the whole of its replay.
 */
export async function readSessionFile(file: File, options: PrepareOptions = {}): Promise<LoadedSession> {
  // The file as bytes, chunk by chunk: a UTF-16 file is read as one, and one longer than a string can be, a line at a time.
  // An abort (another file picked) stops the read at once: no more of the file is read or parsed.
  const [parsed] = await Promise.all([parseSession(file, options), loadEngine()]);
  options.signal?.throwIfAborted();
  const recording = createRecording(parsed.entries);
  await recording.prepare(options);
  return { name: file.name, ...parsed, recording };
}
