import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode, type ProjectItem } from '@decisio/domain';
import { createTestHost, renderPanel, type MockReply } from '@decisio/sdk-plugin/testing';
import { projectsPlugin } from '../index';
import { DeleteProjectAlert } from './DeleteProjectAlert';

/** The alert reads only the project's id and name. */
const project = { projectId: 'a'.repeat(32), name: 'Pricing' } as ProjectItem;

describe('DeleteProjectAlert', () => {
  afterEach(() => cleanup());

  async function renderAlert(locale: 'en-US' | 'zh-CN', answer: MockReply = { data: null }) {
    const host = createTestHost({ plugins: [projectsPlugin], locale });
    host.mockCall('project/deleteProject', answer);
    const onClose = vi.fn();
    const onDeleted = vi.fn();
    await renderPanel(DeleteProjectAlert as never, { host, props: { project, onClose, onDeleted } });
    return { host, onClose, onDeleted };
  }

  it('is the SDK Alert: it opens with the focus on Cancel, not on Delete, and Delete deletes the project', async () => {
    const { host, onClose, onDeleted } = await renderAlert('en-US');
    // Named by its title (the SDK Alert's aria-labelledby).
    const alert = await screen.findByRole('alertdialog', { name: 'Delete project' });
    expect(alert.classList.contains('bp6-alert')).toBe(true);
    expect(screen.getByTestId('project-delete-body').textContent).toContain('Delete the project "Pricing"');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(host.calls.find((c) => c.url === 'project/deleteProject')?.body).toEqual({ projectId: project.projectId });
    expect(onDeleted).toHaveBeenCalledTimes(1);
    expect(host.toasts.map((x) => x.message)).toEqual(['Project deleted']);
  });

  it('in Chinese: 取消 has the focus; Escape cancels, deleting nothing', async () => {
    const { host, onClose, onDeleted } = await renderAlert('zh-CN');
    await screen.findByRole('alertdialog', { name: '删除项目' });
    expect(screen.getByTestId('project-delete-body').textContent).toContain('确定删除项目“Pricing”');
    expect(screen.getByRole('button', { name: '删除' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: '取消' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onDeleted).not.toHaveBeenCalled();
    expect(host.calls.some((c) => c.url === 'project/deleteProject')).toBe(false);
  });

  it('shows a refusal as a toast and closes, the project kept', async () => {
    const { host, onClose, onDeleted } = await renderAlert('en-US', { code: ErrorCode.paramInvalid, message: 'Trainings are running' });
    await screen.findByRole('alertdialog');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(onDeleted).not.toHaveBeenCalled();
    expect(host.toasts.map((x) => x.message)).toEqual(['Trainings are running']);
  });
});
