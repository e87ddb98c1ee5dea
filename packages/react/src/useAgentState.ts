import { useAgentSelector } from './useAgentSelector.js';

/**
 * A slice of the shared state document. The selector receives the document
 * (`unknown`: narrow it) and must return existing values, not new objects.
 *
 * @example
 * const status = useAgentState((doc) => (doc as { refund?: { status: string } }).refund?.status);
 */
export function useAgentState<T>(selector: (document: unknown) => T): T {
  return useAgentSelector((s) => selector(s.thread.sharedState.document));
}
