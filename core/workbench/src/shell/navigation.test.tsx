/**
 * Navigation of the whole app with the real plugins (issue 16): the command palette lists the
 * commands plugins contribute (not only menu entries) and searches them in both languages,
 * F1 / Ctrl+Shift+P open it, the arrows, Enter and Escape work, Ctrl+B hides the menu, the side
 * menu reaches the deploy and deduction areas and the debug page, and every `/project/*` route
 * of the spec opens.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { APP_PLUGINS } from '../main';
import { testUser, userFetch, workbenchFixture } from '../testing/session';
import { paletteItems } from './CommandPalette';

const input = () => screen.getByTestId('command-palette-input');
const shown = () => [...document.querySelectorAll('[data-testid^="command-"][data-testid*="."]')].map((e) => e.getAttribute('data-testid')!.slice('command-'.length));

describe('navigation', () => {
  const { start } = workbenchFixture({ defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(testUser) } });

  it('lists the plugins’ commands in the palette, every area included, with translated titles', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const titles = Object.fromEntries(paletteItems(w).map((x) => [x.id, x.title]));
    expect(titles).toMatchObject({
      'deploy.open-deploy': 'Deploy a policy',
      'deploy.open-records': 'Open call records',
      'reports.open': 'Open analysis reports',
      'business-decision.open': 'Open business decision',
      'policy-update.open': 'Update a policy',
      'environment.new': 'New environment training',
      'deduction.open-simulation': 'Open simulation deduction',
      'deduction.open-decision': 'Open decision deduction',
      'hyperparameters.open': 'Open hyperparameter sets',
      'workflow.open-environment': 'Open environments',
      'projects.quickOpen': 'Quick open a project',
      'menu:storage.manage': expect.stringMatching(/^Go to /),
    });
    // "Back to workbench" only in the project area.
    expect(titles['workflow.open-back']).toBeUndefined();
    w.locale.setLocale('zh-CN');
    const zh = Object.fromEntries(paletteItems(w).map((x) => [x.id, x]));
    expect(zh['deploy.open-deploy']!.title).toBe('部署策略');
    expect(zh['deploy.open-deploy']!.otherTitles).toEqual(['Deploy a policy']);
    expect(zh['environment.new']!.title).toBe('新建环境训练');
  });

  it('opens with F1, finds "deploy", moves with the arrows and runs with Enter, keeping the project link', async () => {
    const w = await start('/project/workbench?projectId=P1&solutionId=S1&tab=x');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    fireEvent.keyDown(window, { key: 'F1' });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'deploy' } });
    await waitFor(() => expect(shown()[0]).toBe('deploy.open-deploy'));
    expect(screen.getByTestId('command-deploy.open-deploy').closest('[aria-selected="true"], .bp6-active')).toBeTruthy();
    // Down then up wraps around and comes back.
    const n = shown().length;
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    expect(screen.getByTestId(`command-${shown()[n - 1]}`).getAttribute('data-active')).toBe('true');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(screen.getByTestId('command-deploy.open-deploy').getAttribute('data-active')).toBe('true');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/project/deploy'));
    expect(w.navigation.getLocation().search).toEqual({ projectId: 'P1', solutionId: 'S1' });
    await waitFor(() => expect(screen.queryByTestId('command-palette-input')).toBeNull());
  });

  it('finds a command by its Chinese title in the English interface, and by its English title in the Chinese one', async () => {
    localStorage.setItem('decisio.locale', 'en-US');
    // a system administrator, who has the admin screens and the system log
    const w = await start('/dashboard', { fetchFn: userFetch({ ...testUser, isSystemRole: true, permissions: ['*'] }) });
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const en = Object.fromEntries(paletteItems(w, { openSettings: () => {} }).map((x) => [x.id, x]));
    expect(en['logs.open']!.otherTitles).toEqual(['打开系统日志']);
    expect(en['shell:settings']!.otherTitles).toEqual(['打开工作台设置']);
    expect(en['menu:storage.manage']!.otherTitles![0]).toMatch(/^前往/);
    fireEvent.keyDown(window, { key: 'F1' });
    for (const [query, id] of [['用户', 'admin.open-users'], ['租户', 'admin.open-tenants'], ['系统日志', 'logs.open'], ['工作台设置', 'shell:settings']] as const) {
      fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: query } });
      await waitFor(() => expect(screen.queryByTestId(`command-${id}`), query).toBeTruthy());
    }
    fireEvent.change(input(), { target: { value: '日志' } });
    await waitFor(() => expect(shown()).toEqual(expect.arrayContaining(['logs.open', 'project-log.open'])));
    expect(screen.getByTestId('command-logs.open').textContent).toContain('Open the system log');
    fireEvent.keyDown(input(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('command-palette-input')).toBeNull());
    w.locale.setLocale('zh-CN');
    const zh = Object.fromEntries(paletteItems(w).map((x) => [x.id, x]));
    expect(zh['logs.open']!.title).toBe('打开系统日志');
    expect(zh['logs.open']!.otherTitles).toEqual(['Open the system log']);
    fireEvent.keyDown(window, { key: 'F1' });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'tenants' } });
    await waitFor(() => expect(shown()[0]).toBe('admin.open-tenants'));
    fireEvent.change(input(), { target: { value: 'system log' } });
    await waitFor(() => expect(shown().slice(0, 2)).toContain('logs.open'));
    expect(screen.getByTestId('command-logs.open').textContent).toContain('打开系统日志');
  });

  it('searches Chinese titles and English words in Chinese, Ctrl+Shift+P opens it, Escape closes it', async () => {
    localStorage.setItem('decisio.locale', 'zh-CN');
    const w = await start('/project/deploy-detail?projectId=P1&serviceId=SV1');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    fireEvent.keyDown(window, { key: 'P', ctrlKey: true, shiftKey: true });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: '调用记录' } });
    await waitFor(() => expect(shown()[0]).toBe('deploy.open-records'));
    fireEvent.change(input(), { target: { value: 'call records' } });
    await waitFor(() => expect(shown()[0]).toBe('deploy.open-records'));
    expect(screen.getByTestId('command-deploy.open-records').textContent).toContain('打开调用记录');
    // The footer documents the shortcuts.
    const help = screen.getByTestId('command-palette-shortcuts').textContent!;
    expect(help).toContain('F1');
    expect(help).toContain('Ctrl+Shift+P');
    expect(help).toContain('Ctrl+P');
    expect(help).toContain('Ctrl+B');
    fireEvent.keyDown(input(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('command-palette-input')).toBeNull());
    expect(w.router.state.location.pathname).toBe('/project/deploy-detail');
    // Run it: the call records are on the current service's page.
    fireEvent.keyDown(window, { key: 'F1' });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'call records' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(w.navigation.getLocation().search).toEqual({ projectId: 'P1', serviceId: 'SV1', section: 'records' }));
    expect(w.router.state.location.pathname).toBe('/project/deploy-detail');
  });

  it('reaches deploy, the deductions and the other areas from the side menu of the project area', async () => {
    const w = await start('/project/workbench?projectId=P1&solutionId=S1');
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const ids = [...menu.querySelectorAll('[data-testid^="side-menu-"]')].map((e) => e.getAttribute('data-testid')!.slice('side-menu-'.length));
    for (const id of ['deploy.menu-deploy', 'reports.menu', 'business-decision.menu', 'policy-update.menu', 'deduction.menu-simulation', 'deduction.menu-decision', 'hyperparameters.menu']) {
      expect(ids).toContain(id);
    }
    // Steps first, then the areas after training, "back" last.
    expect(ids.indexOf('workflow.menu-parameter')).toBeLessThan(ids.indexOf('deduction.menu-simulation'));
    expect(ids.indexOf('policy-update.menu')).toBeLessThan(ids.indexOf('workflow.menu-back'));
    // The debug page of the trainings comes right after the training steps.
    expect(ids.indexOf('environment.menu-debug')).toBe(ids.indexOf('workflow.menu-parameter') + 1);
    fireEvent.click(screen.getByTestId('side-menu-deploy.menu-deploy'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/project/deploy'));
    expect(w.navigation.getLocation().search).toEqual({ projectId: 'P1', solutionId: 'S1' });
    await waitFor(() => expect(screen.getByTestId('side-menu-deploy.menu-deploy').className).toContain('bp6-active'));
    // The workflow's steps stay in the menu on the deploy page.
    expect(screen.getByTestId('side-menu-workflow.menu-environment')).toBeTruthy();
    fireEvent.click(screen.getByTestId('side-menu-deduction.menu-simulation'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/workflow/simulator/simulation'));
    fireEvent.click(screen.getByTestId('side-menu-environment.menu-debug'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/workflow/debug'));
    expect(w.navigation.getLocation().search).toEqual({ projectId: 'P1', solutionId: 'S1' });
    await waitFor(() => expect(screen.getByTestId('side-menu-environment.menu-debug').className).toContain('bp6-active'));
    // Ctrl+B hides the menu's labels, again shows them.
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('side-menu').className).toContain('dc-side-collapsed'));
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('side-menu').className).not.toContain('dc-side-collapsed'));
  });

  it('Ctrl+P opens the project list with its search box focused (quick open)', async () => {
    const w = await start('/project/deploy?projectId=P1');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    fireEvent.keyDown(window, { key: 'p', ctrlKey: true });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/all-project'));
    const search = await screen.findByTestId('projects-search', {}, { timeout: 10_000 });
    await waitFor(() => expect(document.activeElement).toBe(search.querySelector('input') ?? search));
  });

  it('opens every /project route of the spec, none shows "Page not found"', async () => {
    const spec = ['workbench', 'data-source', 'simulator', 'simulation', 'policy', 'parameter', 'decision', 'report', 'deploy', 'deploy-detail', 'business-decision', 'update-policy', 'project-log'];
    const w = await start('/dashboard');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const routes = new Map(w.host.routes.map((r) => [r.path, r]));
    for (const name of spec) {
      const path = `/project/${name}`;
      expect(routes.has(path), path).toBe(true);
      await w.router.navigate({ to: path, search: { projectId: 'P1', solutionId: 'S1' } as never });
      await waitFor(() => expect(w.router.state.location.pathname).toBe(path));
      const match = w.router.state.matches.at(-1)!;
      expect(match.fullPath, path).toBe(path);
      expect(screen.queryByTestId('not-found'), path).toBeNull();
    }
    // The six new ones show the screens the spec names.
    const panels = (p: string) => (routes.get(p)!.panels ?? []).map((x) => (typeof x === 'string' ? x : x.panel));
    expect(panels('/project/data-source')).toEqual(['data-access.datasets', 'data-access.correlation']);
    expect(panels('/project/simulator')).toEqual(['environment.list']);
    expect(panels('/project/simulation')).toEqual(['deduction.simulations']);
    expect(panels('/project/policy')).toEqual(['policy.list']);
    expect(panels('/project/parameter')).toEqual(['tuning.list']);
    expect(panels('/project/decision')).toEqual(['deduction.decisions']);
    // Unknown paths under /project still show the not-found page.
    await w.router.navigate({ to: '/project/nothing-here' as never });
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });

  it('opens every /workflow route of the spec (and the scheme step) on panels some plugin registers', async () => {
    const spec = ['table-correlation', 'pattern', 'scheme', 'simulator', 'simulator/train', 'simulator/simulation', 'objective', 'policy', 'policy/train', 'policy/decision', 'parameter', 'parameter/train', 'debug'];
    const w = await start('/dashboard');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const routes = new Map(w.host.routes.map((r) => [r.path, r]));
    const panelIds = new Set(APP_PLUGINS.flatMap((p) => (p.panels ?? []).map((x) => x.id)));
    for (const name of spec) {
      const path = `/workflow/${name}`;
      const route = routes.get(path);
      expect(route, path).toBeDefined();
      for (const x of route!.panels ?? []) expect(panelIds.has(typeof x === 'string' ? x : x.panel), `${path}: ${String(x)}`).toBe(true);
      expect(route!.panels?.length || route!.load, path).toBeTruthy();
      await w.router.navigate({ to: path, search: { projectId: 'P1', solutionId: 'S1' } as never });
      await waitFor(() => expect(w.router.state.location.pathname).toBe(path));
      expect(w.router.state.matches.at(-1)!.fullPath, path).toBe(path);
      expect(screen.queryByTestId('not-found'), path).toBeNull();
    }
    // /workflow itself leads to the first step.
    await w.router.navigate({ to: '/workflow' as never, search: { projectId: 'P1', solutionId: 'S1' } as never });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/workflow/table-correlation'));
  });
});
