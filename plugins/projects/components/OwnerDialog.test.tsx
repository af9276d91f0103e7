import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode, type ProjectItem } from '@decisio/domain';
import { createTestHost, heldBack, pressBusy, renderPanel } from '@decisio/sdk-plugin/testing';
import { projectsPlugin } from '../index';
import { CollaborationDialog } from './CollaborationDialog';
import { ShareDialog } from './ShareDialog';

/** The dialogs read only the project's id, name and the caller's right. */
const project = { projectId: 'a'.repeat(32), name: 'Pricing', right: 'owner' } as ProjectItem;
const user = { subjectType: 'user' as const, subjectId: 'c'.repeat(32), name: 'bob' };

describe('owner-only settings dialogs', () => {
  afterEach(() => cleanup());

  it('collaboration: asks for one grant first, grants it with a toast, shows a refusal in the dialog', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectPermissionsList', { data: [] });
    host.mockCall('project/getCollaboratorCandidates', { data: [user] });
    let refuse = false;
    host.mockCall('project/createProjectPermissionsList', () => (refuse ? { code: ErrorCode.userNotPermission, message: 'Refused by the server' } : { data: null }));
    await renderPanel(CollaborationDialog as never, { host, props: { project, onClose: () => {} } });
    fireEvent.click(screen.getByTestId('collab-submit'));
    expect((await screen.findByTestId('collab-error')).textContent).toBe('Choose at least one collaborator and permission');
    fireEvent.click(await screen.findByText('bob'));
    expect(screen.queryByTestId('collab-error')).toBeNull();
    fireEvent.click(screen.getByTestId('collab-submit'));
    await waitFor(() => expect(host.toasts.map((x) => x.message)).toEqual(['Collaborators updated']));
    expect(screen.queryByTestId('collab-pending')).toBeNull();
    expect(host.calls.find((c) => c.url === 'project/createProjectPermissionsList')?.body).toEqual({
      projectId: project.projectId,
      permissions: [{ subjectType: 'user', subjectId: user.subjectId, permission: 'view' }],
    });
    refuse = true;
    fireEvent.click(await screen.findByText('bob'));
    fireEvent.click(screen.getByTestId('collab-submit'));
    expect((await screen.findByTestId('collab-error')).textContent).toBe('Refused by the server');
  });

  it('collaboration: no longer offers someone once granted, and offers them again once their grant is removed', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    const org = { subjectType: 'org' as const, subjectId: 'd'.repeat(32), name: 'Research' };
    let grants: { id: string; subjectType: 'user' | 'org'; subjectId: string; subjectName: string; permission: 'view' | 'edit'; createdAt: string }[] = [];
    host.mockCall('project/getProjectPermissionsList', () => ({ data: grants }));
    host.mockCall('project/getCollaboratorCandidates', { data: [user, org] });
    host.mockCall('project/createProjectPermissionsList', (body) => {
      const { permissions } = body as { permissions: { subjectType: 'user' | 'org'; subjectId: string; permission: 'view' | 'edit' }[] };
      grants = permissions.map((p, i) => ({ id: `g${i}`, ...p, subjectName: 'bob', createdAt: '2026-11-01T10:00:00.000Z' }));
      return { data: grants };
    });
    host.mockCall('project/deleteProjectPermissionsByProjectId', () => {
      grants = [];
      return { data: { projectId: project.projectId, removed: 1 } };
    });
    await renderPanel(CollaborationDialog as never, { host, props: { project, onClose: () => {} } });
    const offered = async () => Array.from((await screen.findByTestId('collab-candidates')).querySelectorAll('.bp6-menu-item')).map((m) => m.textContent);
    expect(await offered()).toEqual(['bob', 'Research']);
    fireEvent.click(screen.getByText('bob'));
    fireEvent.click(screen.getByTestId('collab-submit'));
    await waitFor(() => expect(screen.queryByTestId('collab-current')?.textContent).toContain('bob'));
    await waitFor(async () => expect(await offered()).toEqual(['Research']));
    fireEvent.click(screen.getByRole('button', { name: 'Remove bob' }));
    await waitFor(() => expect(screen.queryByTestId('collab-current')).toBeNull());
    await waitFor(async () => expect(await offered()).toEqual(['bob', 'Research']));
  });

  it("collaboration: the owner changes a granted user's right in place (a granted user is not offered to grant again)", async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    let grants = [{ id: 'g0', subjectType: 'user' as const, subjectId: user.subjectId, subjectName: 'bob', permission: 'view' as 'view' | 'edit', createdAt: '2026-11-01T10:00:00.000Z' }];
    const sent: unknown[] = [];
    host.mockCall('project/getProjectPermissionsList', () => ({ data: grants }));
    host.mockCall('project/getCollaboratorCandidates', { data: [user] });
    host.mockCall('project/createProjectPermissionsList', (body) => {
      const { permissions } = body as { permissions: { permission: 'view' | 'edit' }[] };
      sent.push(permissions);
      grants = [{ ...grants[0]!, permission: permissions[0]!.permission }];
      return { data: grants };
    });
    await renderPanel(CollaborationDialog as never, { host, props: { project, onClose: () => {} } });
    const select = (await screen.findByRole('combobox', { name: 'Permission of bob' })) as HTMLSelectElement;
    expect(select.value).toBe('view');
    fireEvent.change(select, { target: { value: 'edit' } });
    await waitFor(() => expect(sent).toEqual([[{ subjectType: 'user', subjectId: user.subjectId, permission: 'edit' }]]));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Permission of bob' }) as HTMLSelectElement).value).toBe('edit'));
  });

  it('sharing: someone who is not the owner sees why and can only close, in Chinese', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'zh-CN' });
    host.mockCall('project/getShareSettings', { data: { projectId: project.projectId, token: null, scope: null, modules: [] } });
    await renderPanel(ShareDialog as never, { host, props: { project: { ...project, right: 'view' }, onClose: () => {} } });
    expect(await screen.findByTestId('share-no-right')).toBeTruthy();
    expect(screen.queryByTestId('share-submit')).toBeNull();
    expect(screen.getByText('关闭')).toBeTruthy();
  });

  it('sharing: the owner saves the link settings and turns the link off', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    let token: string | null = null;
    host.mockCall('project/getShareSettings', () => ({ data: { projectId: project.projectId, token, scope: token ? 'all' : null, modules: token ? ['workbench'] : [] } }));
    host.mockCall('project/saveShareSettings', () => ((token = 'd'.repeat(32)), { data: null }));
    host.mockCall('project/deleteShareSettings', () => ((token = null), { data: null }));
    await renderPanel(ShareDialog as never, { host, props: { project, onClose: () => {} } });
    fireEvent.click(await screen.findByTestId('share-submit'));
    await waitFor(() => expect(host.toasts.map((x) => x.message)).toEqual(['Share settings saved']));
    expect(await screen.findByTestId('share-link')).toBeTruthy();
    fireEvent.click(screen.getByText('Turn off the link'));
    await waitFor(() => expect(host.toasts.map((x) => x.message)).toEqual(['Share settings saved', 'The share link no longer works']));
    expect(screen.queryByTestId('share-error')).toBeNull();
  });

  it('sharing: the dialog stays open after Save, with the focus the busy Save dropped back on it, so Escape closes it', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    const gate = heldBack();
    host.mockCall('project/getShareSettings', { data: { projectId: project.projectId, token: null, scope: null, modules: [] } });
    host.mockCall('project/saveShareSettings', async () => {
      await gate.wait;
      return { data: null };
    });
    const onClose = vi.fn();
    await renderPanel(ShareDialog as never, { host, props: { project, onClose } });
    const save = (await screen.findByTestId('share-submit')) as HTMLButtonElement;
    // Blueprint brings the focus into the dialog once it has opened (in an animation frame).
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    await pressBusy(save);
    await act(async () => gate.release());
    await waitFor(() => expect(host.toasts.map((x) => x.message)).toEqual(['Share settings saved']));
    await waitFor(() => expect(document.activeElement).toBe(save));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
  /** Waits past Blueprint's own move of the focus into a dialog (in an animation frame, onto its empty focus trap when nothing inside has it). */
  const afterBlueprintFocus = () => act(() => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 20))));

  it("collaboration: the owner finds the focus on the search field, not on the dialog's empty focus trap", async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectPermissionsList', { data: [] });
    host.mockCall('project/getCollaboratorCandidates', { data: [user] });
    await renderPanel(CollaborationDialog as never, { host, props: { project, onClose: () => {} } });
    const search = await screen.findByTestId('collab-search');
    await afterBlueprintFocus();
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: 'bo' } });
    expect((search as HTMLInputElement).value).toBe('bo');
  });

  it("sharing: the owner finds the focus on the link's scope (the one chosen) once the settings are in, not on the dialog's empty focus trap", async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    const gate = heldBack();
    host.mockCall('project/getShareSettings', async () => {
      await gate.wait;
      return { data: { projectId: project.projectId, token: 'd'.repeat(32), scope: 'org', modules: ['workbench'] } };
    });
    await renderPanel(ShareDialog as never, { host, props: { project, onClose: () => {} } });
    // The settings are still loading when Blueprint brings the focus into the dialog.
    await afterBlueprintFocus();
    await act(async () => gate.release());
    const org = (await screen.findByLabelText('Organisation members only')) as HTMLInputElement;
    await waitFor(() => expect(org.checked).toBe(true));
    await afterBlueprintFocus();
    expect(document.activeElement).toBe(org);
  });

  it('sharing: someone who is not the owner finds the focus on Close, the one control that does something', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getShareSettings', { data: { projectId: project.projectId, token: null, scope: null, modules: [] } });
    const onClose = vi.fn();
    await renderPanel(ShareDialog as never, { host, props: { project: { ...project, right: 'view' }, onClose } });
    expect(await screen.findByTestId('share-no-right')).toBeTruthy();
    await afterBlueprintFocus();
    expect(document.activeElement).toBe(screen.getByText('Close').closest('button'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });

  it('collaboration: someone who is not the owner finds the focus on Close', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectPermissionsList', { data: [] });
    await renderPanel(CollaborationDialog as never, { host, props: { project: { ...project, right: 'view' }, onClose: () => {} } });
    expect(await screen.findByTestId('collab-no-right')).toBeTruthy();
    await afterBlueprintFocus();
    expect(document.activeElement).toBe(screen.getByText('Close').closest('button'));
  });
});
