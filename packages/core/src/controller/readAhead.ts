/**
 * `Recording.prepare`: a recording read through in slices, loaded when first
 * asked for (only a viewer of long recordings needs it).
 */

import { yieldToPage } from '../yieldToPage.js';
import { loadEngine, loadedEngine } from './engineLoader.js';
import type { Checkpoints, PrepareOptions } from './recording.js';

/** The work done before the page goes on, in milliseconds. */
const SLICE_MS = 8;

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
