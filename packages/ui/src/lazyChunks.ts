import { lazyModule } from './lazyModule.js';

/**
 * The parts of @aguikit/ui that are not in an application's first load: each
 * is a dynamic import, so a bundler puts it, and the libraries only it uses,
 * in a chunk of its own, fetched the first time it is needed.
 */

/** react-markdown and remark-gfm (micromark, mdast, hast...): loaded when the first agent text renders. */
export const markdownChunk = lazyModule(() => import('./MarkdownRenderer.js'));

/** The interrupt form: @rjsf/core and @rjsf/validator-ajv8 (ajv): loaded when an interrupt with a responseSchema opens. */
export const interruptFormChunk = lazyModule(() => import('./ResponseForm.js'));

/**
 * Loads the Markdown renderer ahead of need. Agent text renders as plain,
 * whitespace-preserving text until the renderer (react-markdown and
 * remark-gfm, kept out of the first load) is there, then as Markdown; call
 * this once the first screen is up so the first reply is Markdown from its
 * first token. Loads once: later calls return the same promise. Rejects when
 * the chunk cannot be fetched (the next call tries again).
 *
 * @example
 * import { preloadMarkdown } from '@aguikit/ui';
 * createRoot(container).render(<App />);
 * requestIdleCallback(() => preloadMarkdown().catch(() => undefined)); // it is fetched again when needed
 */
export function preloadMarkdown(): Promise<void> {
  return markdownChunk.load().then(() => undefined);
}

/**
 * Loads the interrupt form ahead of need. The form generated from an
 * interrupt's `responseSchema` (@rjsf/core with its ajv validator) is kept
 * out of the first load and fetched when such an interrupt opens: the dialog
 * shows the reason, message, tool and arguments at once and "Loading the
 * form…" in the form's place until it is there. Call this when an approval is
 * likely (say, once a run starts) so the form shows with the dialog. Loads
 * once: later calls return the same promise. Rejects when the chunk cannot be
 * fetched (the next call tries again).
 *
 * @example
 * import { preloadInterruptForm } from '@aguikit/ui';
 * const agent = useAgentRun({ url: '/api/agent' });
 * useEffect(() => {
 *   if (agent.status === 'running') preloadInterruptForm().catch(() => undefined); // it is fetched again when needed
 * }, [agent.status]);
 */
export function preloadInterruptForm(): Promise<void> {
  return interruptFormChunk.load().then(() => undefined);
}
