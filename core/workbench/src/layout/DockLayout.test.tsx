import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { PanelContribution } from '@decisio/sdk-plugin';
import type { Owned } from '../host/plugin-host';
import { createI18n } from '../i18n/i18n';
import { DockLayout, type DockController } from './DockLayout';
import { layoutStorageKey, readLayout } from './layout-store';

const panels: Owned<PanelContribution>[] = [
  { id: 'demo.alpha', pluginId: 'demo', titleKey: 'alpha', load: async () => () => <p>alpha body</p> },
  { id: 'demo.beta', pluginId: 'demo', titleKey: 'beta', load: async () => () => <p>beta body</p> },
];

function mount(
  defaultPanels: string[],
  onController?: (c: DockController | null) => void,
  contributed: Owned<PanelContribution>[] = panels,
  i18n = createI18n('en-US'),
) {
  return render(
    <I18nextProvider i18n={i18n}>
      <div style={{ width: 800, height: 600 }}>
        <DockLayout
          layoutId="/demo"
          defaultPanels={defaultPanels}
          panels={contributed}
          userId="u1"
          theme="light"
          translate={(k) => k.split(':')[1] ?? k}
          saveDelayMs={0}
          onController={onController}
        />
      </div>
    </I18nextProvider>,
  );
}

describe('DockLayout', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => cleanup());

  it('builds the default layout and loads panels lazily', async () => {
    mount(['demo.alpha']);
    expect(await screen.findByText('alpha body')).toBeTruthy();
    expect(screen.queryByTestId('layout-fallback-notice')).toBeNull();
  });

  it('saves the layout per user and restores it after a remount', async () => {
    let ctl: DockController | null = null;
    const first = mount(['demo.alpha'], (c) => (ctl = c ?? ctl));
    await screen.findByText('alpha body');
    act(() => ctl!.openPanel('demo.beta', { floating: false }));
    await waitFor(() => {
      const r = readLayout(localStorage, 'u1', '/demo');
      expect(r.kind === 'ok' && Object.keys(r.doc.dockview.panels).sort()).toEqual(['demo.alpha', 'demo.beta']);
    });
    first.unmount();
    mount(['demo.alpha']);
    await waitFor(() => expect(document.querySelectorAll('.dv-tab').length).toBe(2));
    expect(screen.queryByTestId('layout-fallback-notice')).toBeNull();
  });

  it('opens a layout saved with the modelling plugin\'s panel ids with the per-area panels', async () => {
    // The layout as the workbench saved it before the split: the one modelling plugin's panels.
    const before: Owned<PanelContribution>[] = [
      { id: 'modelling.environments', pluginId: 'modelling', titleKey: 'environments', load: async () => () => <p>old environments</p> },
      { id: 'modelling.rewards', pluginId: 'modelling', titleKey: 'rewards', load: async () => () => <p>old rewards</p> },
    ];
    let ctl: DockController | null = null;
    const first = mount(['modelling.environments'], (c) => (ctl = c ?? ctl), before);
    await screen.findByText('old environments');
    act(() => ctl!.openPanel('modelling.rewards', { floating: false }));
    await waitFor(() => {
      const r = readLayout(localStorage, 'u1', '/demo');
      expect(r.kind === 'ok' && Object.keys(r.doc.dockview.panels).sort()).toEqual(['modelling.environments', 'modelling.rewards']);
    });
    first.unmount();
    const key = layoutStorageKey('u1', '/demo');
    localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key)!), schemaVersion: 2 }));

    // After the split: the per-area plugins' panels open in the saved places.
    const after: Owned<PanelContribution>[] = [
      { id: 'environment.list', pluginId: 'environment', titleKey: 'environments', load: async () => () => <p>environments per area</p> },
      { id: 'reward.list', pluginId: 'reward', titleKey: 'rewards', load: async () => () => <p>rewards per area</p> },
    ];
    mount(['environment.list'], undefined, after);
    await waitFor(() => expect(document.querySelectorAll('.dv-tab').length).toBe(2));
    expect(await screen.findByText(/per area/)).toBeTruthy();
    expect(screen.queryByTestId('layout-fallback-notice')).toBeNull();
    expect([...document.querySelectorAll('.dv-tab')].map((t) => t.textContent).sort()).toEqual(['environments', 'rewards']);
  });

  it('falls back to the default layout with a notice when the saved one is broken', async () => {
    localStorage.setItem(layoutStorageKey('u1', '/demo'), '{"schemaVersion":2,"dockview":{"grid":{},"panels":{"x":{"id":"gone.panel"}}}}');
    mount(['demo.alpha']);
    expect(await screen.findByTestId('layout-fallback-notice')).toBeTruthy();
    expect(await screen.findByText('alpha body')).toBeTruthy();
  });

  it('falls back when dockview itself rejects the saved layout', async () => {
    localStorage.setItem(
      layoutStorageKey('u1', '/demo'),
      JSON.stringify({ schemaVersion: 2, layoutId: '/demo', savedAt: '', dockview: { grid: { root: 'nonsense' }, panels: { a: { id: 'demo.alpha', contentComponent: 'demo.alpha' } } } }),
    );
    mount(['demo.alpha']);
    expect(await screen.findByTestId('layout-fallback-notice')).toBeTruthy();
    expect(await screen.findByText('alpha body')).toBeTruthy();
  });

  it('gives dockview its screen-reader texts in the chosen language, and follows a change of language', async () => {
    const i18n = createI18n('zh-CN');
    let ctl: DockController | null = null;
    mount(['demo.alpha'], (c) => (ctl = c ?? ctl), panels, i18n);
    await screen.findByText('alpha body');
    const closeLabels = () => [...document.querySelectorAll('.dv-default-tab-action')].map((e) => e.getAttribute('aria-label')).sort();
    expect(closeLabels()).toEqual(['关闭 alpha']);
    act(() => ctl!.openPanel('demo.beta', { floating: false }));
    await waitFor(() => expect(document.querySelector('.dv-live-region')?.textContent).toBe('beta 已打开'));
    expect(closeLabels()).toEqual(['关闭 alpha', '关闭 beta']);
    expect(ctl!.api.messages.moveCommitted('alpha', 'beta', 'left')).toBe('alpha 已拆分到 beta 的左侧。');

    await act(() => i18n.changeLanguage('en-US'));
    // The titles read the same in both languages: the close buttons are renamed all the same.
    expect(closeLabels()).toEqual(['Close alpha', 'Close beta']);
    act(() => ctl!.api.getPanel('demo.beta')!.api.close());
    await waitFor(() => expect(document.querySelector('.dv-live-region')?.textContent).toBe('beta closed'));
  });
});
