import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { definePlugin, useAppLocation, type PluginManifest } from '@decisio/sdk-plugin';
import { workbenchFixture } from '../testing/session';

const loads: string[] = [];
const page = async () => () => <div data-testid="page" />;

function Bell() {
  const loc = useAppLocation();
  return <button data-testid="bell">{loc.pathname}</button>;
}

const bells = definePlugin({
  id: 'bells',
  locales: { 'zh-CN': { t: '页' }, 'en-US': { t: 'Page' } },
  routes: [
    { path: '/dashboard', titleKey: 't', load: page },
    { path: '/quiet', titleKey: 't', load: page },
  ],
  headerItems: [
    { id: 'bells.second', order: 200, load: async () => (loads.push('second'), () => <span data-testid="second">2</span>) },
    { id: 'bells.bell', order: 10, when: (c) => c.signedIn && c.pathname !== '/quiet', load: async () => (loads.push('bell'), Bell) },
    {
      id: 'bells.broken',
      load: async () => {
        loads.push('broken');
        return () => {
          throw new Error('kaput');
        };
      },
    },
  ],
});

describe('header items', () => {
  const fx = workbenchFixture({ reset: () => (loads.length = 0) });
  const start = (path: string, plugins: readonly PluginManifest[] = [bells]) => fx.start(path, { plugins });

  it('renders contributed items in the header in their order, only where `when` holds, and drops one that fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const w = await start('/dashboard');
    await screen.findByTestId('page', undefined, { timeout: 5000 });
    const bell = await screen.findByTestId('bell');
    expect(bell.textContent).toBe('/dashboard');
    expect(bell.closest('[data-testid="app-header"]')).toBeTruthy();
    await screen.findByTestId('second');
    const order = [...document.querySelectorAll('[data-header-item]')].map((e) => e.getAttribute('data-header-item'));
    expect(order).toEqual(['bells.bell', 'bells.broken', 'bells.second']);
    await waitFor(() => expect(error.mock.calls.some((c) => String(c[0]).includes('header item "bells.broken" failed'))).toBe(true));
    expect(document.querySelector('[data-header-item="bells.broken"]')?.textContent).toBe('');

    await act(() => w.router.navigate({ to: '/quiet' }));
    await waitFor(() => expect(screen.queryByTestId('bell')).toBeNull());
    expect(screen.getByTestId('second')).toBeTruthy();
    error.mockRestore();
  });

  it('refuses a header item named outside its plugin', () => {
    expect(() => definePlugin({ id: 'x', headerItems: [{ id: 'y.bell', load: async () => () => null }] })).toThrow(/header item "y.bell"/);
  });
});
