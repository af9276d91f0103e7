import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { workflowPlugin } from '../index';
import { GUIDE_COLLAPSED_KEY, GUIDE_INSET_PROPERTY, GuideOverlay } from './GuideOverlay';

function host(locale: 'en-US' | 'zh-CN', pathname: string, search: Record<string, string>) {
  return createTestHost({ plugins: [workflowPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname, search } });
}

const LINK = { guide: 'true', projectId: 'P1', solutionId: 'S1' };

describe('GuideOverlay', () => {
  beforeEach(() => localStorage.removeItem(GUIDE_COLLAPSED_KEY));
  afterEach(() => cleanup());

  it('highlights the current screen’s step, says what to do and goes on keeping the project link', async () => {
    const h = host('en-US', '/workflow/table-correlation', { ...LINK, tab: 'x' });
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.getByText('Guided first run')).toBeTruthy();
    expect(screen.getByTestId('workflow-guide-count').textContent).toBe('Step 1 of 8');
    const current = screen.getByTestId('workflow-guide-step-dataAccess');
    expect(current.className).toBe('is-current');
    expect(current.querySelector('[aria-current="step"]')).toBeTruthy();
    expect(screen.getByTestId('workflow-guide-hint').textContent).toContain('trajectory, sequence and datetime fields');
    fireEvent.click(screen.getByTestId('workflow-guide-next'));
    expect(h.location()).toEqual({ pathname: '/workflow/pattern', search: LINK });
    // The overlay follows the route: now the graph is the current step, data access is done.
    await waitFor(() => expect(screen.getByTestId('workflow-guide-step-pattern').className).toBe('is-current'));
    expect(screen.getByTestId('workflow-guide-step-dataAccess').className).toBe('is-done');
    expect(screen.getByTestId('workflow-guide-next').textContent).toBe('Next step: Data processing');
  });

  it('treats sub-screens as their step, ends on deploy, and jumps to any step', async () => {
    const h = host('en-US', '/workflow/policy/train', LINK);
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.getByTestId('workflow-guide-step-policy').className).toBe('is-current');
    fireEvent.click(screen.getByTestId('workflow-guide-next'));
    expect(h.location().pathname).toBe('/workflow/simulator/simulation');
    fireEvent.click(screen.getByTestId('workflow-guide-next'));
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: LINK });
    await waitFor(() => expect(screen.queryByTestId('workflow-guide-next')).toBeNull());
    expect(screen.getByText('That was the last step.')).toBeTruthy();
    fireEvent.click(screen.getByText('3. Data processing'));
    expect(h.location()).toEqual({ pathname: '/workflow/scheme', search: LINK });
  });

  it('shows the debug page of an environment training as the environment step, going on to the reward', async () => {
    const h = host('en-US', '/workflow/debug', { ...LINK, simulatorId: 'E1' });
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.getByTestId('workflow-guide-count').textContent).toBe('Step 4 of 8');
    expect(screen.getByTestId('workflow-guide-step-environment').className).toBe('is-current');
    expect(screen.getByTestId('workflow-guide-next').textContent).toBe('Next step: Reward');
    fireEvent.click(screen.getByTestId('workflow-guide-next'));
    expect(h.location()).toMatchObject({ pathname: '/workflow/objective', search: LINK });
  });

  it('speaks Chinese and ends the guide by dropping the flag', async () => {
    const h = host('zh-CN', '/workflow/objective', LINK);
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.getByText('新手引导')).toBeTruthy();
    expect(screen.getByTestId('workflow-guide-count').textContent).toBe('第 5 步，共 8 步');
    expect(screen.getByTestId('workflow-guide-hint').textContent).toContain('reward.py');
    expect(screen.getByTestId('workflow-guide-next').textContent).toBe('下一步：策略');
    fireEvent.click(screen.getByTestId('workflow-guide-close'));
    expect(h.location()).toEqual({ pathname: '/workflow/objective', search: { projectId: 'P1', solutionId: 'S1' } });
    await waitFor(() => expect(screen.queryByTestId('workflow-guide')).toBeNull());
  });

  it('collapses from the keyboard and stays collapsed on the next page', async () => {
    const h = host('en-US', '/workflow/scheme', LINK);
    await renderPanel(GuideOverlay, { host: h });
    const toggle = screen.getByTestId('workflow-guide-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // Shown, it asks the shell to end the pages above it (its height; jsdom lays nothing out).
    expect(document.documentElement.style.getPropertyValue(GUIDE_INSET_PROPERTY)).toMatch(/^\d+px$/);
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId('workflow-guide-next'), { key: 'Escape' });
    expect(screen.queryByTestId('workflow-guide-next')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    expect(localStorage.getItem(GUIDE_COLLAPSED_KEY)).toBe('1');
    // Collapsed, it still holds its title line's room; gone, it gives the room back.
    expect(document.documentElement.style.getPropertyValue(GUIDE_INSET_PROPERTY)).toMatch(/^\d+px$/);
    cleanup();
    expect(document.documentElement.style.getPropertyValue(GUIDE_INSET_PROPERTY)).toBe('');
    await renderPanel(GuideOverlay, { host: host('en-US', '/workflow/simulator', LINK) });
    expect(screen.getByTestId('workflow-guide-toggle').getAttribute('aria-label')).toBe('Expand the guide');
    fireEvent.click(screen.getByTestId('workflow-guide-toggle'));
    expect(screen.getByTestId('workflow-guide-step-environment').className).toBe('is-current');
    expect(localStorage.getItem(GUIDE_COLLAPSED_KEY)).toBeNull();
  });

  it('collapses with Escape pressed anywhere on the page (README), but not when a dialog or an editor takes it', async () => {
    const h = host('en-US', '/project/deploy', LINK);
    await renderPanel(GuideOverlay, { host: h });
    const toggle = () => screen.getByTestId('workflow-guide-toggle');
    // Escape inside an open dialog is the dialog's, and one already handled is left alone.
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const field = document.createElement('input');
    dialog.append(field);
    const editor = document.createElement('div');
    editor.className = 'monaco-editor';
    const editorInput = document.createElement('textarea');
    editor.append(editorInput);
    document.body.append(dialog, editor);
    fireEvent.keyDown(field, { key: 'Escape' });
    fireEvent.keyDown(editorInput, { key: 'Escape' });
    const handled = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    handled.preventDefault();
    act(() => void document.body.dispatchEvent(handled));
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    dialog.remove();
    editor.remove();
    // Focus on the page (not in the guide): Escape collapses it.
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(toggle().getAttribute('aria-expanded')).toBe('false'));
    expect(screen.queryByTestId('workflow-guide-next')).toBeNull();
    expect(localStorage.getItem(GUIDE_COLLAPSED_KEY)).toBe('1');
    // Collapsed, Escape changes nothing; the toggle opens it again.
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
  });

  it('stays hidden without the flag, with guide=false and off the workflow', async () => {
    for (const [pathname, search] of [
      ['/workflow/pattern', { projectId: 'P1' }],
      ['/workflow/pattern', { guide: 'false' }],
      ['/dashboard', { guide: 'true' }],
    ] as const) {
      await renderPanel(GuideOverlay, { host: host('en-US', pathname, search) });
      expect(screen.queryByTestId('workflow-guide')).toBeNull();
      cleanup();
    }
  });

  it('starts from data access on the project workbench', async () => {
    const h = host('en-US', '/project/workbench', LINK);
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.queryByTestId('workflow-guide-count')).toBeNull();
    expect(screen.getByTestId('workflow-guide-hint').textContent).toContain('Start with data access');
    fireEvent.click(screen.getByTestId('workflow-guide-next'));
    expect(h.location()).toEqual({ pathname: '/workflow/table-correlation', search: LINK });
  });
});

describe('the guide overlay contribution', () => {
  afterEach(() => cleanup());

  it('is the workbench’s guide overlay on guide screens with guide on, and loads this component', async () => {
    const [overlay] = workflowPlugin.overlays;
    expect(overlay).toMatchObject({ id: 'workflow.guide', kind: 'guide' });
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const };
    expect(overlay!.when!({ ...ctx, pathname: '/workflow/pattern', search: LINK })).toBe(true);
    expect(overlay!.when!({ ...ctx, pathname: '/project/deploy', search: LINK })).toBe(true);
    expect(overlay!.when!({ ...ctx, pathname: '/project/workbench', search: LINK })).toBe(true);
    expect(overlay!.when!({ ...ctx, pathname: '/workflow/pattern', search: { projectId: 'P1' } })).toBe(false);
    expect(overlay!.when!({ ...ctx, pathname: '/workflow/pattern', search: { guide: 'false' } })).toBe(false);
    expect(overlay!.when!({ ...ctx, pathname: '/dashboard', search: LINK })).toBe(false);
    expect(await overlay!.load()).toBe(GuideOverlay);
  });

  it('follows navigation when rendered with the workbench’s services', async () => {
    const h = host('en-US', '/dashboard', {});
    await renderPanel(GuideOverlay, { host: h });
    expect(screen.queryByTestId('workflow-guide')).toBeNull();
    const nav = h.services.get(navigationServiceRef);
    act(() => nav.navigate('/workflow/pattern', { search: LINK }));
    await waitFor(() => expect(screen.getByTestId('workflow-guide-step-pattern').className).toBe('is-current'));
    act(() => nav.navigate('/workflow/pattern', { search: { projectId: 'P1' } }));
    await waitFor(() => expect(screen.queryByTestId('workflow-guide')).toBeNull());
  });
});
