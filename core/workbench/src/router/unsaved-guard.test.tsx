/**
 * The unsaved-edits guard through the real workbench: a page whose `useUnsavedChangesGuard` is
 * dirty makes every navigation ask first (Stay keeps the page, Leave goes on); a clean page, and
 * the workbench's own move after the session ended, navigate without asking.
 */
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { definePlugin, navigationServiceRef, sessionServiceRef, unsavedChanges, useUnsavedChangesGuard } from '@decisio/sdk-plugin';
import { workbenchFixture } from '../testing/session';

function Editor() {
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  return (
    <div data-testid="page-edit">
      <button type="button" onClick={() => setDirty((d) => !d)} data-testid="toggle-dirty">
        {dirty ? 'dirty' : 'clean'}
      </button>
      {guard.dialog}
    </div>
  );
}

const demo = definePlugin({
  id: 'demo',
  locales: { 'zh-CN': { t: '演示' }, 'en-US': { t: 'Demo' } },
  routes: [
    { path: '/sdk', titleKey: 't', public: true, chrome: 'bare', load: async () => () => <div data-testid="page-sdk" /> },
    { path: '/edit', titleKey: 't', chrome: 'bare', load: async () => Editor },
    { path: '/other', titleKey: 't', chrome: 'bare', load: async () => () => <div data-testid="page-other" /> },
  ],
});

describe('unsaved changes guard', () => {
  const { start } = workbenchFixture({ defaults: { plugins: [demo] } });

  const open = async () => {
    const w = await start('/edit');
    await screen.findByTestId('page-edit', {}, { timeout: 10_000 });
    return w;
  };
  const go = (w: Awaited<ReturnType<typeof open>>, to: string) => act(() => w.host.services.get(navigationServiceRef).navigate(to));

  it('navigates without asking while the page is clean', async () => {
    const w = await open();
    await go(w, '/other');
    expect(await screen.findByTestId('page-other')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(w.router.state.location.pathname).toBe('/other');
  });

  it('asks before leaving a dirty page: Stay (focused, and Escape) keeps it, Leave goes on', async () => {
    const w = await open();
    fireEvent.click(screen.getByTestId('toggle-dirty'));
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(true));
    await go(w, '/other');
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('Leave this page? Your unsaved changes will be lost.');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Stay'));
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(w.router.state.location.pathname).toBe('/edit');
    expect(screen.getByTestId('page-edit')).toBeTruthy();

    await go(w, '/other');
    fireEvent.keyDown(await screen.findByRole('alertdialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(w.router.state.location.pathname).toBe('/edit');

    await go(w, '/other');
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByTestId('page-other')).toBeTruthy();
    expect(w.router.state.location.pathname).toBe('/other');
    // the page is gone with its edits: nothing is guarded any more
    expect(unsavedChanges.hasUnsavedChanges()).toBe(false);
  });

  it('asks nothing once the page is clean again (saved)', async () => {
    const w = await open();
    fireEvent.click(screen.getByTestId('toggle-dirty'));
    fireEvent.click(screen.getByTestId('toggle-dirty'));
    await go(w, '/other');
    expect(await screen.findByTestId('page-other')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('guards the browser page too (beforeunload) while dirty', async () => {
    await open();
    const ask = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(ask()).toBe(false);
    fireEvent.click(screen.getByTestId('toggle-dirty'));
    await waitFor(() => expect(ask()).toBe(true));
  });

  it('leaves without asking when the session ends', async () => {
    const w = await open();
    fireEvent.click(screen.getByTestId('toggle-dirty'));
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(true));
    await act(async () => w.host.services.get(sessionServiceRef).clear());
    expect(await screen.findByTestId('page-sdk')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
