'use client';

import type * as React from 'react';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';

/**
 * An interrupt's actions hold to the bottom edge of the box that scrolls
 * them (`position: sticky` in interrupt.css) once the interrupt's heading is
 * on screen above them, and not before: with two interrupts on a phone, the
 * second one's Save and Close would otherwise show at the bottom of the
 * dialog, over its own heading, before its question had scrolled into view.
 * A card whose heading is still below the visible area gets
 * `data-held="later"`, and its actions stay at its end until then (the
 * first card, and one with focus in it, hold theirs regardless).
 * `cards`: what the open cards are (their ids), heard again when it changes.
 */
export function useHeldActions(region: React.RefObject<HTMLElement | null>, cards: string): void {
  useBrowserLayoutEffect(() => {
    const group = region.current;
    const win = group?.ownerDocument.defaultView;
    if (!group || !win || cards === '') return;
    // In the chat, what scrolls the cards may be the chat itself (a short window, run.css): it reads them there too.
    const parent = group.parentElement;
    const host = parent?.matches('.agk-chat') ? parent : group;
    const update = () => {
      const focused = group.ownerDocument.activeElement;
      // What clips the group clips each card: read once per update, not once per card (300 cards, each ancestor's style).
      let outer: number | undefined;
      // And what clips a card inside the group (the group itself, the list the cards are in): once for the cards of a list.
      const bottoms = new Map<Element | null, number>();
      // The tallest actions held at the bottom edge: what the group's scroll padding must keep clear (below).
      let held = 0;
      // How far above that edge they stop: the same for every card of the group (what scrolls them is the same).
      let inset: number | undefined;
      const inside = (card: Element, beyond: number) => {
        let bottom = bottoms.get(card.parentElement);
        if (bottom === undefined) {
          bottom = visibleBottom(card, win, group, beyond);
          bottoms.set(card.parentElement, bottom);
        }
        return bottom;
      };
      group.querySelectorAll<HTMLElement>('.agk-interrupt').forEach((card, i) => {
        const actions = card.querySelector<HTMLElement>('.agk-interrupt__actions');
        if (!actions) return;
        // Below the heading (the card's top, for a card composed without one), room for the actions.
        const header = card.querySelector('.agk-interrupt__header');
        const above = header ? header.getBoundingClientRect().bottom : card.getBoundingClientRect().top;
        // The first card, and the one being answered, hold theirs all the same: in a window too short for a
        // heading and the actions at once (400% zoom), the actions come first.
        outer ??= visibleBottom(group, win);
        const hold = i === 0 || card.contains(focused) || above + actions.offsetHeight <= inside(card, outer);
        if (hold) {
          card.removeAttribute('data-held');
          inset ??= heldInset(actions, win);
          held = Math.max(held, actions.offsetHeight + inset);
        } else card.setAttribute('data-held', 'later');
      });
      holdScrollPadding(group, host, win, held);
    };
    update();
    // Scroll events do not bubble: captured, any box that scrolls the cards (the dialog, the chat, the page) is heard.
    const doc = group.ownerDocument;
    doc.addEventListener('scroll', update, { capture: true, passive: true });
    win.addEventListener('resize', update);
    group.addEventListener('focusin', update);
    // A text field Tab reaches is scrolled only as far as its caret, past its scroll margin (interrupt.css): the rest
    // of it is brought out from under the held actions.
    let frame = 0;
    const reveal = (event: FocusEvent) => {
      const field = event.target as Element;
      if (!field.matches('input, select, textarea')) return;
      win.cancelAnimationFrame(frame);
      frame = win.requestAnimationFrame(() => {
        if (doc.activeElement === field && underHeldActions(field, win)) field.scrollIntoView({ block: 'nearest' });
      });
    };
    group.addEventListener('focusin', reveal);
    // A form that loads, an error shown, a card answered: the cards' heights change without a scroll.
    const resized = typeof win.ResizeObserver === 'function' ? new win.ResizeObserver(update) : undefined;
    for (const card of group.querySelectorAll('.agk-interrupt')) resized?.observe(card);
    return () => {
      doc.removeEventListener('scroll', update, { capture: true });
      win.removeEventListener('resize', update);
      group.removeEventListener('focusin', update);
      group.removeEventListener('focusin', reveal);
      win.cancelAnimationFrame(frame);
      resized?.disconnect();
      for (const card of group.querySelectorAll('.agk-interrupt')) card.removeAttribute('data-held');
      host.style.removeProperty('--agk-held-top');
      host.style.removeProperty('--agk-held-bottom');
    };
  }, [cards]);
}

/**
 * Whether `field` (or its focus ring) is drawn (partly) under its interrupt's actions where they are held over it: the
 * browser scrolls a focused text field only as far as its caret, which can leave the rest of it under them.
 */
function underHeldActions(field: Element, win: Window): boolean {
  const actions = field.closest('.agk-interrupt')?.querySelector('.agk-interrupt__actions');
  if (!actions || actions.contains(field) || win.getComputedStyle(actions).position !== 'sticky') return false;
  const box = field.getBoundingClientRect();
  const held = actions.getBoundingClientRect();
  // Its focus ring too: a field flush with the actions has its ring's lower edge under them.
  return box.bottom + RING > held.top + 0.5 && box.top < held.bottom;
}

/**
 * How far above the bottom edge of what scrolls them the held actions stop: that box's bottom padding (a host's
 * scroll box with padding holds sticky content inside it) plus their own `bottom` (the chat's area: minus its padding).
 * A field's scroll margin counts from the edge itself, so without this a field lands under them by that much.
 */
function heldInset(actions: HTMLElement, win: Window): number {
  const bottom = Number.parseFloat(win.getComputedStyle(actions).bottom) || 0;
  const root = actions.ownerDocument.documentElement;
  for (let box = actions.parentElement; box && box !== root && box !== actions.ownerDocument.body; box = box.parentElement) {
    const style = win.getComputedStyle(box);
    if (style.overflowY !== 'visible' && style.overflowY !== 'clip') {
      return Math.max(0, (Number.parseFloat(style.paddingBottom) || 0) + bottom);
    }
  }
  return Math.max(0, bottom);
}

/** Room for a focus ring (2px, 2px off) beside what is held over the group's edges. */
const RING = 4;

/**
 * Tells the scroll padding of what scrolls the group (run.css: `--agk-held-top`, `--agk-held-bottom`, set on `host`:
 * the group, or the chat it is in, whose short window scrolls it as one box) how tall its held heading and its
 * tallest held actions are, as drawn: the browser scrolls a field into view (focus, a caret, find in page, a screen
 * reader's cursor) by that padding, and a fixed guess leaves a field under actions that wrap to two or three rows, or
 * under a heading of two lines. Set only when it changes.
 */
function holdScrollPadding(group: HTMLElement, host: HTMLElement, win: Window, actions: number): void {
  const heading = group.querySelector<HTMLElement>(':scope > .agk-interrupts__title');
  const top = heading && win.getComputedStyle(heading).position === 'sticky' ? heading.offsetHeight : 0;
  const set = (name: string, px: number) => {
    const value = `${Math.ceil(px) + RING}px`;
    if (host.style.getPropertyValue(name) !== value) host.style.setProperty(name, value);
  };
  set('--agk-held-top', top);
  set('--agk-held-bottom', actions);
}

/**
 * The lowest y on screen inside every box that clips `element` (an ancestor that scrolls or hides overflow), and the
 * window; or, given `upTo` (an ancestor) and `beyond` (what this gives for it), inside the boxes up to it and `beyond`.
 */
function visibleBottom(element: Element, win: Window, upTo?: Element, beyond?: number): number {
  let bottom = beyond ?? win.innerHeight;
  const end = upTo?.parentElement ?? null;
  for (let box = element.parentElement; box && box !== end; box = box.parentElement) {
    const { overflowY } = win.getComputedStyle(box);
    if (overflowY !== 'visible') bottom = Math.min(bottom, box.getBoundingClientRect().top + box.clientTop + box.clientHeight);
  }
  return bottom;
}
