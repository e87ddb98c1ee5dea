import type { FrameScheduler } from './types.js';

/**
 * One flush per animation frame in a browser, a macrotask elsewhere. Scheduled
 * when the first event of a batch arrives and never pushed back by later ones,
 * so a steady stream still flushes every frame (a throttle, never a debounce).
 */
export const frameScheduler: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState !== 'hidden') {
    const id = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(flush, 0);
  return () => clearTimeout(id);
};
