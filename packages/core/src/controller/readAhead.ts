/**
 * `Recording.prepare`: a recording read through in slices, loaded when first
 * asked for (only a viewer of long recordings needs it).
 */
import { loadEngine, loadedEngine } from './engineLoader.js';
import type { Checkpoints, PrepareOptions } from './recording.js';

/** The work done before the page goes on, in milliseconds. */
const SLICE_MS = 8;

/**
 * Lets the page go on, then resumes: a message to itself, queued behind the
 * tasks waiting (input, a framework's render of the progress; `scheduler.yield`
 * would go ahead of them), and free of the 4 ms a nested timer waits.
 */
const yieldToPage = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') return void setTimeout(resolve, 0);
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(undefined);
  });

/** Makes the checkpoints within the first `count` entries, a slice at a time. */
export async function readAhead(checkpoints: Checkpoints, count: number, { signal, onProgress }: PrepareOptions): Promise<void> {
  signal?.throwIfAborted();
  if (!loadedEngine()) await loadEngine();
  let slice = performance.now();
  while (checkpoints.covered + checkpoints.every <= count) {
    signal?.throwIfAborted();
    checkpoints.extend();
    if (performance.now() - slice >= SLICE_MS) {
      onProgress?.(checkpoints.covered, count);
      await yieldToPage();
      slice = performance.now();
    }
  }
  signal?.throwIfAborted();
  onProgress?.(count, count);
}
