/**
 * The user menu of the header from the keyboard: it opens with the focus on its first item, ↑/↓
 * move between the items (wrapping), Home/End, Enter runs the item, Escape closes it and gives
 * the focus back to the button, Tab closes it and goes on from the button; ↓ on the closed button
 * opens it on its first item. Its two settings entries (the workbench's dialog, the user
 * centre's page) differ by name and icon.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { APP_PLUGINS } from '../main';
import { testUser, userFetch, workbenchFixture } from '../testing/session';

describe('user menu', () => {
  const { start } = workbenchFixture({ defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(testUser) } });

  const open = async () => {
    const button = screen.getByTestId('user-menu');
    button.focus();
    // Enter on a button: the browser clicks it (a click of detail 0).
    fireEvent.keyDown(button, { key: 'Enter' });
    fireEvent.click(button, { detail: 0 });
    const menu = await screen.findByTestId('user-menu-items');
    return { button, menu };
  };
  const items = (menu: HTMLElement) => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')];

  it('opens on its first item, moves with ↑/↓ (wrapping) and Home/End, closes with Escape back onto its button', async () => {
    await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const { button, menu } = await open();
    const all = items(menu);
    expect(all.length).toBeGreaterThan(2);
    // "Signed in as" is disabled: the first item that can run has the focus.
    await waitFor(() => expect(document.activeElement).toBe(all[0]));
    expect(all[0]!.dataset.testid).toBe('user-menu-palette');
    // the focus stays there once the popover has brought it in (its autoFocus, a frame later)
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement).toBe(all[0]);
    const key = (k: string) => fireEvent.keyDown(document.activeElement!, { key: k });
    key('ArrowDown');
    expect(document.activeElement).toBe(all[1]);
    key('ArrowUp');
    key('ArrowUp');
    expect(document.activeElement).toBe(all.at(-1));
    key('ArrowDown');
    expect(document.activeElement).toBe(all[0]);
    key('End');
    expect(document.activeElement).toBe(all.at(-1));
    key('Home');
    expect(document.activeElement).toBe(all[0]);
    key('Escape');
    await waitFor(() => expect(screen.queryByTestId('user-menu-items')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('tells the workbench settings from the user settings, by name and icon, in both languages', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const icon = (el: HTMLElement) => el.querySelector('[data-icon]')?.getAttribute('data-icon');
    for (const [locale, name] of [['en-US', 'Workbench settings'], ['zh-CN', '工作台设置']] as const) {
      w.locale.setLocale(locale);
      const { menu } = await open();
      const all = items(menu);
      const texts = all.map((el) => el.textContent);
      expect(new Set(texts).size, texts.join(', ')).toBe(texts.length);
      const own = screen.getByTestId('user-menu-settings');
      const user = screen.getByTestId('user-menu-user-centre.settings');
      expect(own.textContent).toBe(name);
      expect(icon(own)).toBe('wrench');
      expect(icon(user)).not.toBe(icon(own));
      fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByTestId('user-menu-items')).toBeNull());
    }
  });

  it('runs the focused item with Enter', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const { menu } = await open();
    await waitFor(() => expect(document.activeElement).toBe(items(menu)[0]));
    const info = items(menu).find((el) => el.dataset.testid === 'user-menu-user-centre.info');
    expect(info).toBeTruthy();
    info!.focus();
    fireEvent.keyDown(info!, { key: 'Enter' });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/user-center/info'));
  });

  it.each([
    ['Tab', false],
    ['Shift+Tab', true],
  ])('closes on %s, the focus back on the button for the Tab to go on from there', async (_name, shiftKey) => {
    await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const { button, menu } = await open();
    const all = items(menu);
    await waitFor(() => expect(document.activeElement).toBe(all[0]));
    all[1]!.focus();
    // not prevented: the browser's Tab goes on, from the button, to the next (previous) control
    expect(fireEvent.keyDown(all[1]!, { key: 'Tab', shiftKey }), 'default prevented').toBe(true);
    expect(document.activeElement).toBe(button);
    await waitFor(() => expect(screen.queryByTestId('user-menu-items')).toBeNull());
    expect(button.getAttribute('aria-expanded')).toBe('false');
    // where the browser's Tab took the focus, it stays once the menu has gone
    const next = screen.getByTestId('side-menu-toggle');
    next.focus();
    await new Promise((r) => setTimeout(r, 400));
    expect(document.activeElement).toBe(next);
  });

  it('opens with ↓ on its button, on its first item', async () => {
    await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const button = screen.getByTestId('user-menu');
    button.focus();
    // prevented: the page does not scroll
    expect(fireEvent.keyDown(button, { key: 'ArrowDown' }), 'default prevented').toBe(false);
    const menu = await screen.findByTestId('user-menu-items');
    await waitFor(() => expect(document.activeElement).toBe(items(menu)[0]));
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items(menu)[1]);
    // Escape closes it back onto the button, where ↓ opens it again
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('user-menu-items')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const again = await screen.findByTestId('user-menu-items');
    await waitFor(() => expect(document.activeElement).toBe(items(again)[0]));
  });
});
