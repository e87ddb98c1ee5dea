import type * as Resume from './resume.js';

/**
 * The resume builder (`buildResumeWith`, `loadPayloadValidator`), loaded on
 * demand: the code that answers interrupts stays out of an application's
 * first load until an interrupt opens. Loading twice loads once.
 *
 * @example
 * const { buildResumeWith, loadPayloadValidator } = await loadResumeBuilder();
 */
export function loadResumeBuilder(): Promise<typeof Resume> {
  return import('./resume.js');
}
