/**
 * Where focus lands in an interrupt as it opens: on its first field where
 * the field and the interrupt's question are both in view, else on the
 * interrupt itself, its question in view, and never on something off screen.
 */

/** The nearest ancestor of `element` that scrolls vertically, if any. */
function scrollerOf(element: HTMLElement): HTMLElement | null {
  const win = element.ownerDocument.defaultView;
  for (let node = element.parentElement; node && win; node = node.parentElement) {
    const { overflowY } = win.getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}

/**
 * Focuses `field`, the first field of the interrupt `card` (or the card itself, when it has none), where it shows
 * together with the interrupt's start (its title and what it asks); else the
 * interrupt itself, its start in view. Focus meant for the answer never
 * scrolls the question out of view: in a decision area a few lines tall (a
 * phone, a laptop with a page header), the card takes focus and its first
 * field is the next Tab stop.
 */
export function focusWithQuestion(card: HTMLElement, field: HTMLElement): void {
  const win = card.ownerDocument.defaultView;
  if (!win) {
    field.focus();
    return;
  }
  const box = scrollerOf(card);
  // The page scrolls: its scroll padding is where a fixed header says what is hidden under it.
  const root = card.ownerDocument.documentElement;
  const view = box
    ? box.getBoundingClientRect()
    : {
        top: Number.parseFloat(win.getComputedStyle(root).scrollPaddingTop) || 0,
        bottom: win.innerHeight - (Number.parseFloat(win.getComputedStyle(root).scrollPaddingBottom) || 0),
      };
  // The area's heading is held at its top edge while it scrolls (run.css): what is under it is not in view.
  const heading = box?.querySelector(':scope > .agk-interrupts__title');
  const top =
    heading && win.getComputedStyle(heading).position === 'sticky' ? Math.max(view.top, heading.getBoundingClientRect().bottom) : view.top;
  // The card's actions are held at the bottom edge while it scrolls (interrupt.css): a field under them is not in view.
  const bottom = () => Math.min(view.bottom, card.querySelector('.agk-interrupt__actions')?.getBoundingClientRect().top ?? view.bottom);
  // `field` may be the card itself (it has no field): then its start in view is enough.
  const fits = () => {
    const start = card.getBoundingClientRect().top;
    return start >= top - 1 && (field === card ? start < bottom() : field.getBoundingClientRect().bottom <= bottom() + 1);
  };
  if (!fits()) {
    const by = card.getBoundingClientRect().top - top;
    if (box) box.scrollTop += by;
    else win.scrollBy(0, by);
  }
  const target = fits() ? field : card;
  target.focus({ preventScroll: true });
  // The area itself may be off screen (a page that scrolls, the chat below the fold), or its bottom edge, where the
  // card's actions are held, below the window (a short window whose page scrolls too): brought into view as focusing would.
  const actions = card.querySelector('.agk-interrupt__actions');
  if (!startOnScreen(target) || (actions && actions.getBoundingClientRect().bottom > win.innerHeight + 1)) {
    (box ?? card).scrollIntoView?.({ block: 'nearest' });
  }
}

/** Whether the top edge of `element` is in view: inside the window and every box that scrolls around it. */
function startOnScreen(element: HTMLElement): boolean {
  const win = element.ownerDocument.defaultView;
  if (!win) return true;
  const top = element.getBoundingClientRect().top;
  if (top < 0 || top >= win.innerHeight) return false;
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = win.getComputedStyle(node);
    if (overflowY === 'visible' || overflowY === 'clip') continue;
    const r = node.getBoundingClientRect();
    if (top < r.top - 1 || top >= r.bottom) return false;
  }
  return true;
}

/**
 * Brings `field`, focused in the decision area, out from under what the area
 * holds over it: the area's heading at its top edge, over the label above the
 * field, and the card's actions at its bottom edge (as tall as their buttons
 * wrap to, which no scroll padding knows). The browser scrolls a focused field
 * into view, not its label, and by the area's scroll padding, not by its
 * actions: Tab (or a failed submit) could land on a field hidden under either.
 * Where the area is too short for the label and the field, the field wins,
 * its start never under the heading.
 */
export function revealField(field: HTMLElement): void {
  const win = field.ownerDocument.defaultView;
  const box = scrollerOf(field);
  if (!win || !box) return;
  const held = (node: Element | null | undefined): node is Element => !!node && win.getComputedStyle(node).position === 'sticky';
  const heading = box.querySelector(':scope > .agk-interrupts__title');
  const top = held(heading) ? heading.getBoundingClientRect().bottom : box.getBoundingClientRect().top;
  const label = (field as HTMLInputElement).labels?.[0] ?? field.closest('fieldset')?.querySelector<HTMLElement>(':scope > legend') ?? null;
  if (held(heading) && label) {
    const hidden = top - label.getBoundingClientRect().top;
    if (hidden > 0) box.scrollTop -= hidden;
  }
  const actions = field.closest('.agk-interrupt')?.querySelector('.agk-interrupt__actions');
  if (held(actions) && !actions.contains(field)) {
    const { top: start, bottom } = field.getBoundingClientRect();
    const under = Math.min(bottom - actions.getBoundingClientRect().top, start - top);
    if (under > 0) box.scrollTop += under;
  }
}
