'use client';

import { useAgentSelector } from './useAgentSelector.js';

/**
 * A slice of the shared state document. The selector receives the document,
 * typed as `Doc` (the type the thread's store was created with; `unknown`
 * when not named), and must return existing values, not new objects.
 *
 * @example
 * type Doc = { refund?: { status: string } };
 * const status = useAgentState<Doc, string | undefined>((doc) => doc.refund?.status);
 */
export function useAgentState<Doc = unknown, T = unknown>(selector: (document: Doc) => T): T {
  return useAgentSelector((s) => selector(s.thread.sharedState.document as Doc));
}
