import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { projectLogPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const PROJECT = '9'.repeat(32);
const SOLUTION = 'a'.repeat(32);
const OTHER = 'f'.repeat(32);
const KINDS = ['environment', 'policy', 'scheme'] as const;
const panel = projectLogPlugin.panels.find((p) => p.id === 'project-log.log')!;
const host = (search: Record<string, string>, locale: 'zh-CN' | 'en-US' = 'en-US') =>
  createTestHost({ plugins: [trainingsKitPlugin, projectLogPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/project/project-log', search } });

/** `n` trainings of the project, newest first: `t0` is the newest; every third one failed. */
function trainings(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: String(i).padStart(32, '0'),
    code: `E-${i}`,
    kind: KINDS[i % 3]!,
    name: `t${i}`,
    state: i % 3 === 2 ? 'failure' : 'successful',
    progress: 1,
    durationMs: 60_000,
    error: i % 3 === 2 ? `failed ${i}` : null,
    projectId: PROJECT,
    solutionId: i % 2 === 0 ? SOLUTION : OTHER,
    createdAt: new Date(Date.UTC(2026, 10, 23, 12) - i * 60_000).toISOString(),
  }));
}

/** Serves `train/getAllTrainList` like the server: filtered by kind, paged. */
function serve(h: ReturnType<typeof host>, all: ReturnType<typeof trainings>) {
  h.mockCall('solution/getSolutionList', { data: [{ solutionId: SOLUTION, name: 'control' }, { solutionId: OTHER, name: 'other' }] });
  h.mockCall('train/getAllTrainList', (body) => {
    const q = body as { projectId: string; kind?: string; page: number; pageSize: number };
    const rows = all.filter((r) => r.projectId === q.projectId && (!q.kind || r.kind === q.kind));
    return { data: { rows: rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize), total: rows.length, page: q.page, pageSize: q.pageSize } };
  });
}

const names = () => screen.getAllByTestId('project-log-row').map((r) => r.querySelector('td:nth-child(2)')!.textContent!.split(' ')[0]);
const lastBody = (h: ReturnType<typeof host>) => h.calls.filter((c) => c.url === 'train/getAllTrainList').pop()!.body;

describe('project log', () => {
  afterEach(() => cleanup());

  it('pages every training of the project through the server, newest first, with its solution and message', async () => {
    const h = host({ projectId: PROJECT });
    serve(h, trainings(45));
    await renderPanel(panel, { host: h });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(20));
    expect(lastBody(h)).toEqual({ projectId: PROJECT, page: 1, pageSize: 20 });
    expect(names().slice(0, 3)).toEqual(['t0', 't1', 't2']);
    const third = screen.getAllByTestId('project-log-row')[2]!.textContent!;
    expect(third).toContain('control');
    expect(third).toContain('Data processing');
    expect(third).toContain('failed 2');
    expect(screen.getAllByTestId('project-log-row')[1]!.textContent).toContain('other');
    expect(screen.getByTestId('project-log-total').textContent).toBe('Trainings: 45');
    expect(screen.getByTestId('project-log-page').textContent).toBe('Page 1 of 3');
    expect((screen.getByTestId('project-log-prev') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('project-log-next'));
    await waitFor(() => expect(names()[0]).toBe('t20'));
    expect(lastBody(h)).toEqual({ projectId: PROJECT, page: 2, pageSize: 20 });
    fireEvent.click(screen.getByTestId('project-log-next'));
    await waitFor(() => expect(names()).toEqual(['t40', 't41', 't42', 't43', 't44']));
    expect(screen.getByTestId('project-log-page').textContent).toBe('Page 3 of 3');
    expect((screen.getByTestId('project-log-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('project-log-prev'));
    await waitFor(() => expect(names()[0]).toBe('t20'));

    // a bigger page shows more at once
    fireEvent.change(screen.getByTestId('project-log-page-size'), { target: { value: '50' } });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(45));
    expect(lastBody(h)).toEqual({ projectId: PROJECT, page: 1, pageSize: 50 });
    expect(screen.getByTestId('project-log-page').textContent).toBe('Page 1 of 1');
  });

  it('filters by type on the server and starts again from the first page', async () => {
    const h = host({ projectId: PROJECT });
    serve(h, trainings(90));
    await renderPanel(panel, { host: h });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(20));
    fireEvent.click(screen.getByTestId('project-log-next'));
    await waitFor(() => expect(screen.getByTestId('project-log-page').textContent).toBe('Page 2 of 5'));
    fireEvent.change(screen.getByTestId('project-log-kind'), { target: { value: 'policy' } });
    await waitFor(() => expect(screen.getByTestId('project-log-page').textContent).toBe('Page 1 of 2'));
    expect(lastBody(h)).toEqual({ projectId: PROJECT, kind: 'policy', page: 1, pageSize: 20 });
    expect(screen.getByTestId('project-log-total').textContent).toBe('Trainings: 30');
    expect(screen.getAllByTestId('project-log-row').every((r) => r.textContent!.includes('Policy'))).toBe(true);
  });

  it('offers a retry when the log cannot be read', async () => {
    const h = host({ projectId: PROJECT });
    h.mockCall('solution/getSolutionList', { data: [] });
    h.mockCall('train/getAllTrainList', { code: 500, message: 'database away' });
    await renderPanel(panel, { host: h });
    await screen.findByTestId('project-log-retry');
    serve(h, trainings(3));
    fireEvent.click(screen.getByTestId('project-log-retry'));
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(3));
    expect(screen.queryByTestId('project-log-next')).not.toBeNull();
  });

  it('shows the empty state in Chinese and asks for a project without one', async () => {
    const h = host({ projectId: PROJECT }, 'zh-CN');
    serve(h, []);
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('日志为空')).toBeTruthy();
    expect(screen.getByTestId('project-log-total').textContent).toBe('训练：0 条');
    expect(screen.queryByTestId('project-log-page')).toBeNull();
    cleanup();
    await renderPanel(panel, { host: host({}) });
    expect(await screen.findByText('No project selected')).toBeTruthy();
  });

  it('says that no training is of the chosen type (not that the log is empty), in both languages', async () => {
    const h = host({ projectId: PROJECT });
    serve(h, trainings(2));
    await renderPanel(panel, { host: h });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('project-log-kind'), { target: { value: 'scheme' } });
    expect(await screen.findByText('No trainings of the type “Data processing”')).toBeTruthy();
    expect(screen.getByText('Choose All types to see every training of the project.')).toBeTruthy();
    expect(screen.queryByText('Nothing in the log yet')).toBeNull();
    cleanup();
    const zh = host({ projectId: PROJECT }, 'zh-CN');
    serve(zh, trainings(2));
    await renderPanel(panel, { host: zh });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('project-log-kind'), { target: { value: 'scheme' } });
    expect(await screen.findByText('没有“数据处理”类型的训练')).toBeTruthy();
    expect(screen.getByText('选择“全部类型”可查看项目的所有训练。')).toBeTruthy();
  });
  it("another project's log starts on its first page, unfiltered, and never shows the previous project's rows while its own load", async () => {
    const other = '8'.repeat(32);
    const h = host({ projectId: PROJECT });
    serve(h, trainings(45));
    const gate = heldBack();
    const list = (body: unknown) => body as { projectId: string; page: number; pageSize: number };
    h.mockCall('train/getAllTrainList', async (body) => {
      const q = list(body);
      if (q.projectId === other) {
        await gate.wait;
        return { data: { rows: [{ ...trainings(1)[0]!, name: 'theirs', projectId: other }], total: 1, page: q.page, pageSize: q.pageSize } };
      }
      const rows = trainings(45).filter((r) => !('kind' in q) || r.kind === (q as { kind?: string }).kind);
      return { data: { rows: rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize), total: rows.length, page: q.page, pageSize: q.pageSize } };
    });
    await renderPanel(panel, { host: h });
    await waitFor(() => expect(screen.getAllByTestId('project-log-row')).toHaveLength(20));
    fireEvent.change(screen.getByTestId('project-log-kind'), { target: { value: 'policy' } });
    await waitFor(() => expect(screen.getByTestId('project-log-total').textContent).toBe('Trainings: 15'));

    act(() => h.services.get(navigationServiceRef).navigate('/project/project-log', { search: { projectId: other } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'train/getAllTrainList' && list(c.body).projectId === other)).toBe(true));
    expect(lastBody(h)).toEqual({ projectId: other, page: 1, pageSize: 20 });
    expect(screen.queryAllByTestId('project-log-row')).toEqual([]);
    expect(screen.queryByTestId('project-log-total')).toBeNull();
    gate.release();
    await waitFor(() => expect(names()).toEqual(['theirs']));
    expect((screen.getByTestId('project-log-kind') as HTMLSelectElement).value).toBe('');
  });
});
