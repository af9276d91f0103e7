import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode, type ProjectItem, type SolutionItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { projectsPlugin } from '../index';

const panel = projectsPlugin.panels.find((p) => p.id === 'projects.solutions')!;
const projectId = 'a'.repeat(32);
const project = (right: ProjectItem['right']): ProjectItem => ({
  projectId,
  name: 'Pricing',
  colour: 'blue',
  industryTemplate: null,
  info: null,
  imageVersion: null,
  locked: false,
  favourite: false,
  ownerId: 'b'.repeat(32),
  ownerName: 'alice',
  right,
  solutionCount: 1,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
});
const solution: SolutionItem = {
  solutionId: 'c'.repeat(32),
  projectId,
  name: 'Baseline',
  dataType: 'data_driven',
  goalType: 'policy_search',
  description: null,
  pinned: true,
  creatorId: 'b'.repeat(32),
  creatorName: 'alice',
  copiedFrom: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

describe('SolutionListPanel', () => {
  afterEach(() => cleanup());

  it('asks to select a project first', async () => {
    await renderPanel(panel, { plugins: [projectsPlugin], locale: 'en-US' });
    expect(screen.getByText('Select a project')).toBeTruthy();
  });

  it('deletes a solution only after "I am sure" is typed', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US', location: { pathname: '/all-project', search: { projectId } } });
    host.mockCall('project/getProject', { data: project('edit') });
    host.mockCall('solution/getSolutionList', { data: [solution] });
    host.mockCall('solution/delete', { data: { solutionId: solution.solutionId } });
    await renderPanel(panel, { host });
    expect(await screen.findByText('Baseline')).toBeTruthy();
    expect(screen.getByText('Pinned')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const submit = await screen.findByTestId('solution-delete-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('solution-delete-confirm'), { target: { value: 'yes' } });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('solution-delete-confirm'), { target: { value: 'I am sure' } });
    fireEvent.click(submit);
    await waitFor(() => expect(host.calls.find((c) => c.url === 'solution/delete')?.body).toEqual({ solutionId: solution.solutionId, confirm: 'I am sure' }));
  });

  it('copies a solution with its trained models only when asked, in both languages', async () => {
    for (const [locale, copy, models, confirm] of [
      ['en-US', 'Copy', 'Also copy the trained models', 'solution-copy-submit'],
      ['zh-CN', '复制', '同时复制已训练的模型', 'solution-copy-submit'],
    ] as const) {
      const host = createTestHost({ plugins: [projectsPlugin], locale, location: { pathname: '/all-project', search: { projectId } } });
      host.mockCall('project/getProject', { data: project('edit') });
      host.mockCall('solution/getSolutionList', { data: [solution] });
      host.mockCall('solution/copy', { data: { ...solution, solutionId: 'd'.repeat(32), name: 'Baseline 2', pinned: false, copiedFrom: solution.solutionId } });
      await renderPanel(panel, { host });
      fireEvent.click(await screen.findByRole('button', { name: copy }));
      // Without the tick: no models asked for, the server names the copy.
      fireEvent.click(await screen.findByTestId(confirm));
      await waitFor(() => expect(host.calls.filter((c) => c.url === 'solution/copy').map((c) => c.body)).toEqual([{ solutionId: solution.solutionId }]));
      await waitFor(() => expect(screen.queryByTestId('solution-copy-form')).toBeNull());
      // With a name and the tick.
      fireEvent.click(screen.getByRole('button', { name: copy }));
      fireEvent.change(await screen.findByTestId('solution-copy-name'), { target: { value: 'Baseline 2' } });
      fireEvent.click(screen.getByLabelText(models));
      fireEvent.click(screen.getByTestId(confirm));
      await waitFor(() => expect(host.calls.filter((c) => c.url === 'solution/copy').map((c) => c.body)[1]).toEqual({ solutionId: solution.solutionId, name: 'Baseline 2', withModels: true }));
      cleanup();
    }
  });

  it('keeps the copy dialog open with the reason of a refusal', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US', location: { pathname: '/all-project', search: { projectId } } });
    host.mockCall('project/getProject', { data: project('edit') });
    host.mockCall('solution/getSolutionList', { data: [solution] });
    host.mockCall('solution/copy', { code: ErrorCode.solutionNameUsed, message: 'The solution name is already used', data: null });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy' }));
    fireEvent.click(screen.getByLabelText('Also copy the trained models'));
    fireEvent.click(screen.getByTestId('solution-copy-submit'));
    expect((await screen.findByTestId('solution-copy-error')).textContent).toContain('The solution name is already used');
    expect(screen.getByTestId('solution-copy-form')).toBeTruthy();
  });

  it('shows a view-only project without change buttons, in Chinese', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'zh-CN', location: { pathname: '/all-project', search: { projectId } } });
    host.mockCall('project/getProject', { data: project('view') });
    host.mockCall('solution/getSolutionList', { data: [solution] });
    await renderPanel(panel, { host });
    expect(await screen.findByText('你只能查看此项目。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.queryByTestId('solutions-create')).toBeNull();
  });
});
