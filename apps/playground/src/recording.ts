import { loadEngine, type ParsedSession, parseSession, type SessionEntry, serializeSession } from '@aguikit/core';

/** Offers the session (every agent event and every client entry) as a JSON-lines file. */
export function downloadSession(entries: readonly SessionEntry[], name: string): void {
  const blob = new Blob([serializeSession(entries)], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file read as a session: its name, the entries it holds, and what could not be read of it. */
export interface LoadedSession extends ParsedSession {
  name: string;
}

/**
 * Reads a saved session (or an event log of an earlier version: its lines are
 * agent events), with the engine loaded: the replay's controller applies the
 * session's agent events as it is made.
 */
export async function readSessionFile(file: File): Promise<LoadedSession> {
  const [text] = await Promise.all([file.text(), loadEngine()]);
  const parsed = parseSession(text);
  return { name: file.name, ...parsed };
}
