'use client';

import * as React from 'react';
import { useCleanupRef } from './useCleanupRef.js';

/** Whether a list keeps the newest content in view (`following`) or stays where the reader scrolled (`paused`). */
export type FollowState = 'following' | 'paused';

export interface AutoScroll {
  /** For the scrolling element. */
  viewportRef: (node: HTMLElement | null) => void;
  /** For the element that grows as content arrives (observed for size changes). */
  contentRef: (node: HTMLElement | null) => void;
  state: FollowState;
  /** Scrolls to the newest content and follows it again. */
  jumpToLatest: () => void;
}

/** Within this distance of the end counts as at the end (sub-pixel layouts never land exactly on it). */
const AT_END_PX = 24;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
const SCROLL_KEYS = new Set([...UP_KEYS, 'ArrowDown', 'PageDown', 'End', ' ']);
/** How long after the reader opens or closes something in the list its growth is theirs, not new content. */
const ACTED_MS = 500;

/**
 * Follows new content while the reader is at the end, and stops as soon as
 * they scroll up (wheel, touch, keys, scrollbar); reaching the end again, or
 * `jumpToLatest`, resumes. Growth is seen by a MutationObserver (every
 * committed token) and a ResizeObserver where there is one (images loading,
 * a resized window); a virtualized list's sizer, whose height is written as a style, is seen by
 * the MutationObserver.
 *
 * Intent comes from input events and from scrollTop going down, not from
 * "not at the end": content growing under a reader at the end would look
 * like scrolling away.
 *
 * A disclosure the reader opens or closes (a tool call's card, a reasoning
 * span: what has `aria-expanded`) grows or shrinks the list by their own
 * hand: it stays where it was, under their pointer and focus, and the list
 * opens downward from it rather than following the growth to its end; once
 * that leaves the end out of view, the list stops following. The reader's
 * own scroll (wheel, touch, keys, the scrollbar) ends that at once.
 */
export function useAutoScroll(): AutoScroll {
  const [state, setState] = React.useState<FollowState>('following');
  const live = React.useRef({
    viewport: null as HTMLElement | null,
    following: true,
    lastTop: 0,
    touchY: 0,
    /** The disclosure the reader just toggled, where it was on screen, and until when growth is theirs. */
    acted: null as { node: Element; top: number; until: number } | null,
  });
  const resize = React.useRef<ResizeObserver | null>(null);

  // Only a change is set: a scroll event at the end says "following" again on every token, and even an
  // unchanged state can cost React a render when the component has other updates in flight.
  const follow = React.useCallback((next: boolean) => {
    if (live.current.following === next) return;
    live.current.following = next;
    setState(next ? 'following' : 'paused');
  }, []);

  const toEnd = React.useCallback(() => {
    const el = live.current.viewport;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    live.current.lastTop = el.scrollTop;
  }, []);

  const keepUp = React.useCallback(() => {
    const { acted, viewport } = live.current;
    if (acted && viewport && acted.node.isConnected && performance.now() < acted.until) {
      const moved = acted.node.getBoundingClientRect().top - acted.top;
      if (Math.abs(moved) >= 1) viewport.scrollTop += moved;
      live.current.lastTop = viewport.scrollTop;
      if (viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight > AT_END_PX) follow(false);
      return;
    }
    live.current.acted = null;
    if (live.current.following) toEnd();
  }, [follow, toEnd]);

  const observer = React.useCallback(() => {
    if (!resize.current && typeof ResizeObserver === 'function') resize.current = new ResizeObserver(keepUp);
    return resize.current;
  }, [keepUp]);

  const viewportRef = useCleanupRef(
    (el: HTMLElement) => {
      live.current.viewport = el;
      const scrollable = () => el.scrollHeight > el.clientHeight;
      // The reader scrolls: what they opened no longer holds the list where it was.
      const release = () => {
        live.current.acted = null;
      };
      const onScroll = () => {
        const top = el.scrollTop;
        const fromEnd = el.scrollHeight - top - el.clientHeight;
        // Up, and not clamped to the end by content that shrank: the reader's, however small the step (a trackpad's
        // few pixels, each still near the end). Near the end otherwise, following again.
        if (top < live.current.lastTop - 1 && fromEnd > 1) follow(false);
        else if (fromEnd <= AT_END_PX) follow(true);
        live.current.lastTop = top;
      };
      const onWheel = (e: WheelEvent) => {
        release();
        if (e.deltaY < 0 && scrollable()) follow(false);
      };
      const onKey = (e: KeyboardEvent) => {
        if (SCROLL_KEYS.has(e.key) && !(e.key === ' ' && e.target !== el)) release();
        if (e.target === el && UP_KEYS.has(e.key) && scrollable()) follow(false);
      };
      const onTouchStart = (e: TouchEvent) => {
        release();
        live.current.touchY = e.touches[0]?.clientY ?? 0;
      };
      const onTouchMove = (e: TouchEvent) => {
        // A finger moving down scrolls the content up.
        if ((e.touches[0]?.clientY ?? 0) > live.current.touchY + 4 && scrollable()) follow(false);
      };
      // Captured before the disclosure's own handler changes the list (Enter and Space on a button click it too).
      const onClick = (e: MouseEvent) => {
        const node = e.target instanceof Element ? e.target.closest('[aria-expanded]') : null;
        if (!node || node === el || !el.contains(node)) return;
        live.current.acted = { node, top: node.getBoundingClientRect().top, until: performance.now() + ACTED_MS };
      };
      // On the viewport itself, not on what it holds: its scrollbar.
      const onPointerDown = (e: PointerEvent) => {
        if (e.target === el) release();
      };
      const mutations = new MutationObserver(keepUp);
      mutations.observe(el, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['style'] });
      el.addEventListener('scroll', onScroll, { passive: true });
      el.addEventListener('wheel', onWheel, { passive: true });
      el.addEventListener('keydown', onKey);
      el.addEventListener('click', onClick, { capture: true });
      el.addEventListener('pointerdown', onPointerDown, { passive: true });
      el.addEventListener('touchstart', onTouchStart, { passive: true });
      el.addEventListener('touchmove', onTouchMove, { passive: true });
      observer()?.observe(el);
      toEnd();
      return () => {
        mutations.disconnect();
        el.removeEventListener('scroll', onScroll);
        el.removeEventListener('wheel', onWheel);
        el.removeEventListener('keydown', onKey);
        el.removeEventListener('click', onClick, { capture: true });
        el.removeEventListener('pointerdown', onPointerDown);
        el.removeEventListener('touchstart', onTouchStart);
        el.removeEventListener('touchmove', onTouchMove);
        resize.current?.unobserve(el);
        live.current.viewport = null;
      };
    },
    [follow, keepUp, observer, toEnd],
  );

  const contentRef = useCleanupRef(
    (el: HTMLElement) => {
      observer()?.observe(el);
      return () => resize.current?.unobserve(el);
    },
    [observer],
  );

  const jumpToLatest = React.useCallback(() => {
    follow(true);
    toEnd();
    live.current.viewport?.focus({ preventScroll: true });
  }, [follow, toEnd]);

  return { viewportRef, contentRef, state, jumpToLatest };
}
