import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { createUseT, definePlugin, useAppLocation, useSession, useTheme, type PluginManifest } from '@decisio/sdk-plugin';
import { workbenchFixture } from '../testing/session';

const page = (testId: string) => async () => () => <div data-testid={testId} />;
const useTourT = createUseT<{ hello: string }>('tour');

/** A plugin overlay reading the workbench's translations, services and theme. */
function Tour() {
  const { t } = useTourT();
  const theme = useTheme();
  const loc = useAppLocation();
  const session = useSession();
  return (
    <div data-testid="tour" data-theme={theme}>
      {t('hello')} {loc.pathname} {session.userId}
    </div>
  );
}

const loads: string[] = [];
const tour = definePlugin({
  id: 'tour',
  locales: { 'zh-CN': { t: '页', hello: '你好' }, 'en-US': { t: 'Page', hello: 'Hello' } },
  routes: [
    { path: '/dashboard', titleKey: 't', load: page('page-dashboard') },
    { path: '/project/workbench', titleKey: 't', load: page('page-project-workbench') },
  ],
  overlays: [
    {
      id: 'tour.guide',
      kind: 'guide',
      when: (ctx) => ctx.pathname === '/project/workbench' && !!ctx.search.guide && ctx.search.guide !== 'false',
      load: async () => (loads.push('tour.guide'), Tour),
    },
  ],
});

const badge = definePlugin({
  id: 'badge',
  overlays: [
    { id: 'badge.status', load: async () => (loads.push('badge.status'), () => <div data-testid="badge">badge</div>) },
    {
      id: 'badge.broken',
      load: async () => {
        loads.push('badge.broken');
        return () => {
          throw new Error('kaput');
        };
      },
    },
  ],
});

describe('overlay area', () => {
  const fx = workbenchFixture({ reset: () => (loads.length = 0) });
  const start = (path: string, plugins: readonly PluginManifest[] = [tour]) => fx.start(path, { plugins });

  it('loads a contributed guide overlay only where it applies, renders it in the workbench tree, and the generic note gives way to it', async () => {
    const w = await start('/dashboard?guide=true');
    await screen.findByTestId('page-dashboard');
    // No contributed guide overlay applies here: the generic note shows and the overlay's code is not loaded.
    expect(screen.getByTestId('guide-overlay')).toBeTruthy();
    expect(loads).toEqual([]);

    await act(() => w.router.navigate({ to: '/project/workbench', search: { guide: 'true' } as never }));
    const el = await screen.findByTestId('tour');
    expect(el.textContent).toBe('Hello /project/workbench u1');
    expect(el.closest('[data-overlay="tour.guide"]')).toBeTruthy();
    expect(screen.queryByTestId('guide-overlay')).toBeNull();
    expect(loads).toEqual(['tour.guide']);
    // Same providers as the pages: the workbench's theme and language reach it.
    expect(el.dataset.theme).toBe('light');
    act(() => w.theme.setTheme('dark'));
    await waitFor(() => expect(screen.getByTestId('tour').dataset.theme).toBe('dark'));
    act(() => w.locale.setLocale('zh-CN'));
    await waitFor(() => expect(screen.getByTestId('tour').textContent).toBe('你好 /project/workbench u1'));

    // Guide off: the overlay unmounts and no note shows.
    await act(() => w.router.navigate({ to: '/project/workbench', search: {} as never }));
    await waitFor(() => expect(screen.queryByTestId('tour')).toBeNull());
    expect(screen.queryByTestId('guide-overlay')).toBeNull();
    // Guide on elsewhere: the generic note is back; the overlay was loaded once.
    await act(() => w.router.navigate({ to: '/dashboard', search: { guide: 'true' } as never }));
    expect(await screen.findByTestId('guide-overlay')).toBeTruthy();
    await act(() => w.router.navigate({ to: '/project/workbench', search: { guide: 'true' } as never }));
    expect(await screen.findByTestId('tour')).toBeTruthy();
    expect(loads).toEqual(['tour.guide']);
  });

  it('keeps the generic note beside overlays that are not guides, and drops an overlay that fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await start('/dashboard?guide=true', [tour, badge]);
    await screen.findByTestId('page-dashboard');
    expect(await screen.findByTestId('badge')).toBeTruthy();
    await waitFor(() => expect(loads).toContain('badge.broken'));
    await waitFor(() => expect(error.mock.calls.some((c) => String(c[0]).includes('overlay "badge.broken" failed'))).toBe(true));
    expect(document.querySelector('[data-overlay="badge.broken"]')?.textContent).toBe('');
    expect(screen.getByTestId('guide-overlay')).toBeTruthy();
    expect(screen.getByTestId('page-dashboard')).toBeTruthy();
    error.mockRestore();
  });
});
