/**
 * The focus after a command of the palette or a side-menu link opened another page: on that page
 * (its heading, else its first control, once loaded), not on <body>, on the link, nor back on what
 * had it on the page left; a user moving on in the menu keeps the focus there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { APP_PLUGINS } from '../main';
import { testUser, userFetch, workbenchFixture } from '../testing/session';
import { focusOpenedPage, pageFocusTarget } from './page-focus';

const admin = { ...testUser, isSystemRole: true, permissions: ['*'] };

describe('page focus (unit)', () => {
  afterEach(() => (document.body.innerHTML = ''));

  it('picks the opened panel’s heading, else its first control', () => {
    const main = document.createElement('main');
    main.innerHTML = `<div class="dv-groupview"><div class="dc-panel"><h2>Other</h2></div></div>
      <div class="dv-active-group"><div class="dc-panel"><button disabled>x</button><p>intro</p><input data-testid="first" /></div></div>`;
    document.body.append(main);
    expect(pageFocusTarget(main)?.dataset.testid).toBe('first');
    const h = document.createElement('h1');
    main.querySelector('.dv-active-group .dc-panel')!.prepend(h);
    expect(pageFocusTarget(main)).toBe(h);
    // an empty state's title when there is no control
    main.innerHTML = '<div class="dc-panel"><span tabindex="-1"></span><h4>No project selected</h4></div>';
    expect(pageFocusTarget(main)?.textContent).toBe('No project selected');
  });

  it('waits for the content of a lazy page, and leaves a focus that something took', async () => {
    const main = document.createElement('main');
    main.innerHTML = '<div class="dc-panel"><div class="spinner"></div></div>';
    document.body.append(main);
    (document.activeElement as HTMLElement | null)?.blur();
    focusOpenedPage(main);
    expect(document.activeElement).toBe(document.body);
    const h = document.createElement('h2');
    main.querySelector('.dc-panel')!.append(h);
    await waitFor(() => expect(document.activeElement).toBe(h));
    expect(h.getAttribute('tabindex')).toBe('-1');

    // Focus placed by the command itself (a search box): left alone.
    const box = document.createElement('input');
    document.body.append(box);
    box.focus();
    focusOpenedPage(main);
    expect(document.activeElement).toBe(box);
  });

  it('takes the focus from the link that opened the page, not from another control, and not for the page left', async () => {
    const main = document.createElement('main');
    main.innerHTML = '<div class="dc-panel"><h2>Left</h2></div>';
    const link = document.createElement('a');
    link.href = '#';
    document.body.append(link, main);
    link.focus();
    focusOpenedPage(main, { from: link, left: [...main.children] });
    // the page left, still shown: its heading is not taken
    expect(document.activeElement).toBe(link);
    main.innerHTML = '<div class="dc-panel"><h2>Opened</h2></div>';
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Opened'));

    // the focus gone elsewhere meanwhile (another link): left there
    link.focus();
    const other = document.createElement('a');
    other.href = '#';
    document.body.append(other);
    focusOpenedPage(main, { from: link, left: [...main.children] });
    other.focus();
    main.innerHTML = '<div class="dc-panel"><h2>Later</h2></div>';
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement).toBe(other);
  });
});

describe('page focus after a palette command', () => {
  const { start } = workbenchFixture({ defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(admin) } });

  const runFromPalette = async (query: string, id: string) => {
    fireEvent.keyDown(window, { key: 'F1' });
    const input = await screen.findByTestId('command-palette-input');
    input.focus();
    fireEvent.change(input, { target: { value: query } });
    await waitFor(() => expect(screen.getByTestId(`command-${id}`).dataset.active).toBe('true'));
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(input.isConnected).toBe(false));
  };
  const inPage = () => {
    const a = document.activeElement;
    return a !== null && a !== document.body && a.closest('.dc-console-main') !== null;
  };

  it('gives the focus to the opened page, whether the palette opened from the page or from a control', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    (document.activeElement as HTMLElement | null)?.blur();
    await runFromPalette('open the system log', 'logs.open');
    expect(w.router.state.location.pathname).toBe('/system-log');
    await waitFor(() => expect(inPage(), String(document.activeElement?.outerHTML.slice(0, 80))).toBe(true), { timeout: 5_000 });
    expect(screen.getByTestId('panel-logs.list').contains(document.activeElement)).toBe(true);

    // From the user menu's button: the page left, the focus goes to the page opened, not back.
    const button = screen.getByTestId('user-menu');
    button.focus();
    await runFromPalette('open the project log', 'project-log.open');
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/project/project-log'));
    // no project: the page's empty state ("No project selected") has the focus
    await waitFor(() => expect(inPage(), String(document.activeElement?.outerHTML.slice(0, 120))).toBe(true), { timeout: 5_000 });
    expect(document.activeElement?.textContent).toBe('No project selected');
  });

  it('gives the focus back to what had it when the palette closes without opening a page', async () => {
    await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const button = screen.getByTestId('user-menu');
    button.focus();
    fireEvent.keyDown(window, { key: 'F1' });
    const input = await screen.findByTestId('command-palette-input');
    input.focus();
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(input.isConnected).toBe(false));
    await waitFor(() => expect(document.activeElement).toBe(button));
  });
});

describe('page focus after a side-menu link', () => {
  const { start } = workbenchFixture({ defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(admin) } });
  const link = async (id: string) => (await screen.findByTestId(`side-menu-${id}`, {}, { timeout: 10_000 })) as HTMLElement;
  /** Activates `el` as Enter on a link does: the browser clicks it (a click of detail 0). */
  const activate = (el: HTMLElement) => {
    el.focus();
    fireEvent.keyDown(el, { key: 'Enter' });
    fireEvent.click(el, { detail: 0 });
  };

  it('gives the focus to the opened page, whether the link was activated with Enter or clicked', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    activate(await link('logs.menu'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/system-log'));
    await waitFor(() => expect(screen.getByTestId('panel-logs.list').contains(document.activeElement), String(document.activeElement?.outerHTML.slice(0, 80))).toBe(true), { timeout: 5_000 });

    // a click that left the focus on <body> (Safari does not focus a clicked link)
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.click(await link('jobs.menu'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/job'));
    await waitFor(() => expect(screen.getByTestId('panel-jobs.list').contains(document.activeElement), String(document.activeElement?.outerHTML.slice(0, 80))).toBe(true), { timeout: 5_000 });
  });

  it('leaves the focus in the menu for a user who moves on in it before the page has come, and on the link of the page already open', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    const logs = await link('logs.menu');
    activate(logs);
    // ↓ / Tab to the next entry at once, as the page loads
    const jobs = await link('jobs.menu');
    jobs.focus();
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/system-log'));
    await screen.findByTestId('panel-logs.list');
    await new Promise((r) => setTimeout(r, 300));
    expect(document.activeElement).toBe(jobs);

    // the page already open: nothing to go to, the focus stays on its link
    const current = await link('logs.menu');
    activate(current);
    await new Promise((r) => setTimeout(r, 300));
    expect(document.activeElement).toBe(current);
  });
});
