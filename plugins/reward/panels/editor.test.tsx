import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { rewardPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const SOLUTION = 'a'.repeat(32);
const panel = (id: string) => rewardPlugin.panels.find((p) => p.id === id)!;
const host = (locale: 'zh-CN' | 'en-US' = 'en-US') =>
  createTestHost({ plugins: [trainingsKitPlugin, rewardPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/objective', search: { solutionId: SOLUTION } } });

describe('reward editor', () => {
  afterEach(() => cleanup());

  it('creates a reward with reward.py and checks the name first', async () => {
    const h = host();
    h.mockCall('objective/list', { data: { rows: [], total: 0 } });
    h.mockCall('objective/create', { data: { id: 'd'.repeat(32) } });
    h.mockCall('objective/detail', { data: { id: 'd'.repeat(32), name: 'profit', description: '', files: { 'reward.py': 'x' }, policyList: [] } });
    await renderPanel(panel('reward.list'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    expect(((await screen.findByTestId('reward-code')) as HTMLTextAreaElement).value).toContain('def get_reward');
    fireEvent.click(screen.getByTestId('reward-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'objective/create')).toBe(false);
    fireEvent.change(screen.getByTestId('reward-name'), { target: { value: 'profit' } });
    fireEvent.click(screen.getByTestId('reward-save'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'objective/create')?.body).toMatchObject({ solutionId: SOLUTION, name: 'profit', files: { 'reward.py': expect.stringContaining('def get_reward') } }));
  });

  it('tries the edited files on sample data and shows the distribution, then the error with its line', async () => {
    const h = host();
    h.mockCall('objective/list', { data: { rows: [], total: 0 } });
    h.mockCall('objective/tryReward', { data: { ok: true, rows: 66, source: { kind: 'scheme', name: 'scheme one' }, nodes: ['obs', 'action', 'next_obs'], summary: { count: 66, mean: -0.5, std: 0.25, min: -1.5, max: -0.01, median: -0.4 }, histogram: { edges: [-1.5, -0.75, -0.01], counts: [20, 46] } } });
    await renderPanel(panel('reward.list'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    fireEvent.change(await screen.findByTestId('reward-code'), { target: { value: 'def get_reward(data):\n    return data["obs"]\n' } });
    fireEvent.click(screen.getByTestId('reward-try'));
    const summary = await screen.findByTestId('reward-try-summary');
    expect(summary.getAttribute('data-count')).toBe('66');
    expect(summary.textContent).toContain('Rewards of 66 sampled rows of scheme one');
    expect(summary.textContent).toContain('-0.5000');
    expect(screen.getByTestId('reward-try-histogram').querySelectorAll('rect')).toHaveLength(2);
    // The try sends the files as edited, unsaved.
    expect(h.calls.find((c) => c.url === 'objective/tryReward')?.body).toEqual({ solutionId: SOLUTION, files: { 'reward.py': 'def get_reward(data):\n    return data["obs"]\n' } });
    expect(h.calls.some((c) => c.url === 'objective/create')).toBe(false);

    h.mockCall('objective/tryReward', { data: { ok: false, error: { code: 'sandbox.exception', message: "KeyError in reward.py line 2: 'obs'", file: 'reward.py', line: 2 } } });
    fireEvent.click(screen.getByTestId('reward-try'));
    const err = await screen.findByTestId('reward-try-error');
    expect(err.textContent).toContain('The reward failed in reward.py at line 2');
    expect(err.textContent).toContain('KeyError');
    expect(screen.queryByTestId('reward-try-summary')).toBeNull();
  });

  it('lists the policies using a reward and does not offer to delete it', async () => {
    const h = host('zh-CN');
    h.mockCall('objective/list', { data: { rows: [{ id: 'd'.repeat(32), name: 'profit', files: null }], total: 1 } });
    h.mockCall('objective/detail', { data: { id: 'd'.repeat(32), name: 'profit', description: '', files: { 'reward.py': 'def get_reward(d):\n    return 1\n', 'util.py': '' }, policyList: [{ id: 'p'.repeat(32), name: 'ppo one' }] } });
    await renderPanel(panel('reward.list'), { host: h });
    fireEvent.click(await screen.findByText('profit'));
    expect(await screen.findByText('ppo one')).toBeTruthy();
    expect(screen.getByText('util.py')).toBeTruthy();
    expect(screen.getByText('删除').closest('button')!.disabled).toBe(true);
  });
});
