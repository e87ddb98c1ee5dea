'use client';

import { useSelectorFor } from './useAgentSelector.js';

/**
 * A slice of the shared state document. The selector receives the document,
 * typed as `Doc` (the type the thread's store was created with), and
 * returns a slice; one that builds an object or an array re-renders only
 * when a member of it changes (see `useAgentSelector`). Type the selector's parameter and
 * both types are inferred, or name both: naming `Doc` alone does not compile
 * (TypeScript would not infer the slice's type, which would be `unknown`).
 * `Doc` is what the app expects, not what the agent is bound to send: a
 * `STATE_SNAPSHOT` may replace the document with any JSON value, `null`
 * included, so a type that admits that keeps the selector from throwing
 * during render.
 *
 * @example
 * type Doc = { refund?: { status: string } } | null;
 * const status = useAgentState((doc: Doc) => doc?.refund?.status);
 * const same = useAgentState<Doc, string | undefined>((doc) => doc?.refund?.status);
 * const both = useAgentState((doc: Doc) => ({ status: doc?.refund?.status, note: doc?.note }));
 */
export function useAgentState<Doc, T>(selector: (document: Doc) => T): T {
  return useSelectorFor('useAgentState', (s) => selector(s.thread.sharedState.document as Doc));
}
