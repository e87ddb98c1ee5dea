import type { ThreadState } from '../model.js';
import { loadResumeBuilder } from '../resumeLoader.js';

/**
 * A controller's preloader of what answering interrupts takes: called with the
 * open interrupts after every flush, it loads the resume builder as soon as
 * interrupts open, and ajv when one has a responseSchema, so that an answer
 * is sent without waiting for code to load.
 */
export function resumePreloader(): (interrupts: ThreadState['interrupts']) => void {
  let preloadedFor: ThreadState['interrupts'] | undefined;
  return (interrupts) => {
    if (interrupts === preloadedFor || interrupts.length === 0) return;
    preloadedFor = interrupts;
    loadResumeBuilder()
      .then((m) => (interrupts.some((it) => it.responseSchema !== undefined) ? m.loadPayloadValidator() : undefined))
      // A chunk that failed to load is loaded again when the answer is sent, where the error is reported.
      .catch(() => undefined);
  };
}
