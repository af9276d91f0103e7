/**
 * Keyboard of a Blueprint `Menu` in a popover (Blueprint 6's `Menu` has none; its `MenuItem`
 * clicks on Enter and Space): the WAI-ARIA menu pattern's focus moves, ↑/↓ to the previous or next
 * item (wrapping), Home/End to the first or last; the popover closes on Escape itself.
 */
import type { KeyboardEvent } from 'react';
import { Classes } from '@blueprintjs/core';

/** The items of `menu` that take the focus: its menu items, less the disabled ones. */
export function menuItemsOf(menu: ParentNode): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter(
    (el) => el.getAttribute('aria-disabled') !== 'true' && !el.classList.contains(Classes.DISABLED),
  );
}

/** Puts the focus on the first item of the menu in `root` (a popover opening); whether there was one. */
export function focusFirstMenuItem(root: ParentNode): boolean {
  const first = menuItemsOf(root)[0];
  first?.focus();
  return Boolean(first);
}

/**
 * `onKeyDown` of a `Menu`: ↑/↓ move the focus to the previous or next item, wrapping (from outside
 * the items, ↓ goes to the first and ↑ to the last), Home/End to the first or last item.
 */
export function onMenuKeyDown(e: KeyboardEvent<HTMLElement>): void {
  const items = menuItemsOf(e.currentTarget);
  const n = items.length;
  if (!n) return;
  const at = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  if (e.key === 'ArrowDown') next = at < 0 ? 0 : (at + 1) % n;
  else if (e.key === 'ArrowUp') next = at < 0 ? n - 1 : (at - 1 + n) % n;
  else if (e.key === 'Home') next = 0;
  else if (e.key === 'End') next = n - 1;
  else return;
  e.preventDefault();
  e.stopPropagation();
  items[next]!.focus();
}
