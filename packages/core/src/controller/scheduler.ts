import type { FrameScheduler } from './types.js';

/**
 * One flush per animation frame in a browser, a macrotask elsewhere. Scheduled
 * when the first event of a batch arrives and never pushed back by later ones,
 * so a steady stream still flushes every frame (a throttle, never a debounce).
 *
 * In a browser the flush runs in a task of its own posted from the frame's
 * callbacks, right after the frame, not inside it: the React commit it causes
 * and the layout and paint of the frame are then two tasks, not one, so input
 * waits for the longer of them, not for both (bench case 5: long tasks of
 * 53-83 ms while a long reply streamed, none since).
 */
export const frameScheduler: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState !== 'hidden') {
    let cancelled = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (!cancelled) flush();
    };
    const id = requestAnimationFrame(() => channel.port2.postMessage(null));
    return () => {
      cancelled = true;
      cancelAnimationFrame(id);
      channel.port1.close();
    };
  }
  const id = setTimeout(flush, 0);
  return () => clearTimeout(id);
};
