/**
 * The focus on a page that a command of the palette or a side-menu link opened: the palette
 * closes, its search box goes, and the focus would fall to <body> (keys then reach nothing); the
 * link keeps it, on the menu. It goes to the opened page instead: its main heading (h1 or h2; made
 * focusable with `tabindex="-1"`), else its first control, else another heading, in the opened
 * panel (the active dock group's, else the first) or, for a page without panels, in the page. A
 * lazy panel shows a spinner first: the focus goes to the page once its content comes.
 */

import { Classes } from '@blueprintjs/core';
import { TABBABLE, tabbable, watchFocusAndDom } from '@decisio/sdk-plugin';

/** How long (ms) at most it waits for the opened page's content (a lazy panel, its data). */
export const PAGE_FOCUS_WAIT_MS = 5_000;

/** The opened panel in the page (`main`): the active dock group's, else the first; the page itself without panels. */
function openedPanel(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>('.dv-active-group .dc-panel') ?? main.querySelector<HTMLElement>('.dc-panel') ?? main;
}

const shown = (el: Element) => el.closest('[hidden], [aria-hidden="true"], [inert]') === null;

/**
 * What takes the focus on the page (`main`): the opened panel's main heading (h1, h2), else its
 * first control, else another heading (an empty state's title: "No project selected"); null while
 * there is none of them (a spinner).
 */
export function pageFocusTarget(main: HTMLElement): HTMLElement | null {
  const panel = openedPanel(main);
  const heading = (selector: string) => [...panel.querySelectorAll<HTMLElement>(selector)].find(shown);
  return heading('h1, h2') ?? [...panel.querySelectorAll(TABBABLE)].find(tabbable) ?? heading('h3, h4, h5, h6') ?? null;
}

/**
 * Whether the focus is free to move: on nothing (<body>, an element gone or in an overlay that is
 * closing: the palette fading), or on `from` (the side-menu link that opened the page).
 */
function focusFree(from: Element | undefined): boolean {
  const a = document.activeElement;
  return a === null || a === document.body || a === from || !a.isConnected || a.closest(`.${Classes.OVERLAY}:not(.${Classes.OVERLAY_OPEN})`) !== null;
}

/** Focuses `el`, a heading through `tabindex="-1"` (focusable by script, not by Tab). */
function focusOn(el: HTMLElement): void {
  if (/^H[1-6]$/.test(el.tagName) && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
}

/** Options of {@link focusOpenedPage}. */
export interface PageFocusOptions {
  /** How long (ms) at most it waits for the page's content; default {@link PAGE_FOCUS_WAIT_MS}. */
  waitMs?: number;
  /**
   * The element that opened the page (a side-menu link) and keeps the focus meanwhile: its focus
   * counts as free to move, as <body>'s does. Default: none.
   */
  from?: Element;
  /**
   * The content of the page left, still shown while the navigation runs (`main`'s children when it
   * started): nothing in it takes the focus; the watch waits for the opened page's content.
   */
  left?: readonly Element[];
}

/**
 * Gives the focus to the opened page (`main`, {@link pageFocusTarget}) when it has none (on
 * <body>, or in the fading palette; a command that focused a control itself, e.g. the project
 * list's search box, keeps it) or it is still on `from` (the side-menu link that opened it): now,
 * or when the content arrives, within `waitMs`; the watch stops as soon as the focus goes anywhere
 * else (a user moving on in the menu with ↓ or Tab keeps the focus there). Returns stop.
 */
export function focusOpenedPage(main: HTMLElement, options: PageFocusOptions = {}): () => void {
  const { waitMs = PAGE_FOCUS_WAIT_MS, from, left = [] } = options;
  const place = (): boolean => {
    if (!focusFree(from)) return true;
    const target = pageFocusTarget(main);
    if (!target || left.some((el) => el.contains(target))) return false;
    focusOn(target);
    return true;
  };
  if (place()) return () => {};
  return watchFocusAndDom({
    waitMs,
    observe: (observer) =>
      observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'aria-hidden', 'inert', 'tabindex', 'style', 'class'] }),
    onMutation: (stop) => {
      if (place()) stop();
    },
    onFocusIn: (_e, stop) => {
      if (!focusFree(from)) stop();
    },
  });
}
