/** A refusal answered with a 4xx (or 503) status and a JSON body `{ error: { code, message } }`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `runId:index` of an SSE id, or undefined when it is not one of ours. */
export function parseEventId(id: string): { runId: string; index: number } | undefined {
  const at = id.lastIndexOf(':');
  const digits = id.slice(at + 1);
  // Digits only: Number() would read '' as 0 and accept ' 3', '0x3' and '3e0'.
  if (at <= 0 || !/^\d{1,15}$/.test(digits)) return undefined;
  return { runId: id.slice(0, at), index: Number(digits) };
}

/**
 * A `Last-Event-ID` as the run wrote it: HTTP drops the spaces a header's value starts with, and a run id may start
 * with some (its event ids do), so they are given back.
 */
export function withLeadingSpaces(lastEventId: string, runId: string): string {
  const lead = /^ */u.exec(runId)?.[0] ?? '';
  return lastEventId.startsWith(lead) ? lastEventId : `${lead}${lastEventId}`;
}
