import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createServiceRef, createUseT, definePlugin, definePluginApi, navigationServiceRef, useProjectLink, useService, type PluginEndpointBuilder } from './index';
import { createTestHost, renderPanel } from './testing';

const greeterRef = createServiceRef<{ greet(name: string): string }>('demo.greeter');
const endpoints = (b: PluginEndpointBuilder) => ({ 'demo/hello': b.query<{ text: string }, void>({ query: () => ({ url: 'demo/hello' }) }) });
const demoApi = definePluginApi('demo', endpoints);
const useDemoT = createUseT<{ hi: string }>('demo');

function DemoPanel() {
  const { t } = useDemoT();
  const greeter = useService(greeterRef);
  const hello = demoApi.endpoints['demo/hello'].useQuery();
  const link = useProjectLink();
  return (
    <div>
      <p>{t('hi', { name: greeter.greet('Ada') })}</p>
      <p data-testid="server">{hello.data?.text ?? '...'}</p>
      <button onClick={() => link.go('/project/simulator', { simulatorId: 'SD-1' })}>go</button>
    </div>
  );
}

const demo = definePlugin({
  id: 'demo',
  provides: [greeterRef],
  endpoints,
  locales: { 'zh-CN': { hi: '你好，{{name}}' }, 'en-US': { hi: 'Hello, {{name}}' } },
  panels: [{ id: 'demo.main', titleKey: 'hi', load: async () => DemoPanel }],
  activate(ctx) {
    ctx.provide(greeterRef, { greet: (n) => n.toUpperCase() });
  },
});

describe('createTestHost / renderPanel', () => {
  afterEach(() => cleanup());

  it('renders a panel with services, translations, mocked calls and navigation', async () => {
    const host = createTestHost({ plugins: [demo], locale: 'en-US', location: { pathname: '/project/workbench', search: { projectId: 'P-1', guide: 'true', other: 'x' } } });
    await host.activate();
    host.mockCall('demo/hello', { data: { text: 'from server' } });
    await renderPanel(demo.panels[0]!, { host });
    expect(screen.getByText('Hello, ADA')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('server').textContent).toBe('from server'));
    fireEvent.click(screen.getByText('go'));
    expect(host.location()).toEqual({ pathname: '/project/simulator', search: { guide: 'true', projectId: 'P-1', simulatorId: 'SD-1' } });
    expect(host.calls).toEqual([{ url: 'demo/hello', body: undefined }]);
  });

  it("keeps a browser's history: a navigation pushes an entry, replace overwrites the current one, Back returns to the previous one", () => {
    const host = createTestHost({ location: { pathname: '/dashboard' } });
    const nav = host.services.get(navigationServiceRef);
    const heard: string[] = [];
    nav.onDidNavigate((l) => heard.push(l.pathname + (l.search.id ? `?id=${l.search.id}` : '')));
    nav.navigate('/list');
    nav.navigate('/list', { search: { id: 'a' } });
    nav.navigate('/list', { search: { id: 'b' }, replace: true });
    expect(host.history().map((l) => l.search.id ?? l.pathname)).toEqual(['/dashboard', '/list', 'b']);
    expect(host.back()).toBe(true);
    expect(host.location()).toEqual({ pathname: '/list', search: {} });
    expect(host.back()).toBe(true);
    expect(host.back()).toBe(false);
    expect(host.location().pathname).toBe('/dashboard');
    // a navigation from an earlier entry drops the ones after it
    nav.navigate('/other');
    expect(host.history().map((l) => l.pathname)).toEqual(['/dashboard', '/other']);
    expect(heard).toEqual(['/list', '/list?id=a', '/list?id=b', '/list', '/dashboard', '/other']);
    expect(host.navigations.map((l) => l.pathname)).toEqual(['/list', '/list', '/list', '/other']);
  });
});
