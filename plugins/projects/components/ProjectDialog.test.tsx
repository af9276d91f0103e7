import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { projectsPlugin } from '../index';
import { ProjectDialog } from './ProjectDialog';

const saved = {
  projectId: 'a'.repeat(32),
  name: 'Pricing',
  colour: 'gold',
  industryTemplate: 'electric',
  info: null,
  imageVersion: null,
  locked: false,
  favourite: false,
  ownerId: 'b'.repeat(32),
  ownerName: 'alice',
  right: 'owner',
  solutionCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

describe('ProjectDialog (create)', () => {
  afterEach(() => cleanup());

  it('checks the limits with the catalogue messages and sends nothing', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    await renderPanel(ProjectDialog as never, { host, props: { onClose: () => {} } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'x'.repeat(21) } });
    fireEvent.change(screen.getByTestId('project-info'), { target: { value: 'i'.repeat(201) } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('Too long: at most 20 characters')).toBeTruthy();
    expect(screen.getByText('Too long: at most 200 characters')).toBeTruthy();
    expect(host.calls).toEqual([]);
    cleanup();
    await renderPanel(ProjectDialog as never, { plugins: [projectsPlugin], locale: 'zh-CN', props: { onClose: () => {} } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('此项为必填项')).toBeTruthy();
  });

  it('creates a project with name, colour, template and info, then closes', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/createProject', { data: saved });
    const onClose = vi.fn();
    const onSaved = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose, onSaved } });
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: ' Pricing ' } });
    fireEvent.click(screen.getByTestId('project-colour-gold'));
    fireEvent.change(screen.getByTestId('project-industry'), { target: { value: 'electric' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.calls).toEqual([{ url: 'project/createProject', body: { name: 'Pricing', colour: 'gold', industryTemplate: 'electric', info: null, imageVersion: null } }]);
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(host.toasts.map((x) => x.message)).toEqual(['Project created']);
  });

  it('shows "name used" from the server under the name field', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/createProject', { code: ErrorCode.projectNameUsed, message: 'Project name already exists' });
    const onClose = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose } });
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('Project name already exists')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
