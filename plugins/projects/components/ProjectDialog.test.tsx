import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, heldBack, pressBusy, renderPanel } from '@decisio/sdk-plugin/testing';
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

const TEMPLATES = [
  { id: 'electric', name: { 'zh-CN': '冷库温控（电力）', 'en-US': 'Cold room power control (electric)' }, description: { 'zh-CN': '冷库温度随室外回升。', 'en-US': 'A cold room warms up.' } },
  { id: 'coupon', name: { 'zh-CN': '定价与补货（优惠券）', 'en-US': 'Pricing and ordering (coupon)' }, description: { 'zh-CN': '门店定价。', 'en-US': 'A store prices.' } },
];

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
    // Only the list of versions the dialog offers was read.
    expect(host.calls.filter((c) => c.url !== 'atmVersion/getAtmVersionList')).toEqual([]);
    cleanup();
    await renderPanel(ProjectDialog as never, { plugins: [projectsPlugin], locale: 'zh-CN', props: { onClose: () => {} } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('此项为必填项')).toBeTruthy();
  });

  it('creates a project with name, colour and info, then closes', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/createProject', { data: { ...saved, industryTemplate: null } });
    const onClose = vi.fn();
    const onSaved = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose, onSaved } });
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: ' Pricing ' } });
    fireEvent.click(screen.getByTestId('project-colour-gold'));
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.calls.filter((c) => c.url !== 'template/getTemplateList' && c.url !== 'atmVersion/getAtmVersionList')).toEqual([
      { url: 'project/createProject', body: { name: 'Pricing', colour: 'gold', industryTemplate: null, info: null, imageVersion: null } },
    ]);
    expect(onSaved).toHaveBeenCalledWith({ ...saved, industryTemplate: null });
    expect(host.toasts.map((x) => x.message)).toEqual(['Project created']);
    expect(screen.queryByTestId('project-guided')).toBeNull();
  });

  it('gives the focus back to the New project button once created, or closed with Escape (the list shows the dialog only while open)', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/createProject', { data: { ...saved, industryTemplate: null } });
    function List() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            New project
          </button>
          {open && <ProjectDialog onClose={() => setOpen(false)} />}
        </>
      );
    }
    await renderPanel(List, { host });
    const opener = screen.getByRole('button', { name: 'New project' });
    const open = async () => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      await waitFor(() => expect(document.activeElement).not.toBe(opener));
    };
    await open();
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(screen.queryByTestId('project-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('project-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('creates from an industry template through the seeding call and opens the guided first run', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'zh-CN', location: { pathname: '/all-project', search: {} } });
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    host.mockCall('template/createProject', { data: { project: saved, templateId: 'electric', solutionId: 'S1', datasetId: 'D1', objectiveId: 'O1' } });
    const onClose = vi.fn();
    const onSaved = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose, onSaved } });
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.click(screen.getByTestId('project-colour-gold'));
    fireEvent.change(screen.getByTestId('project-industry'), { target: { value: 'electric' } });
    // The template's description and what it seeds show under the choice.
    expect(await screen.findByText(/冷库温度.*项目将带有模板的历史数据/)).toBeTruthy();
    expect((screen.getByTestId('project-guided') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.calls.find((c) => c.url === 'template/createProject')!.body).toEqual({ templateId: 'electric', name: 'Pricing', colour: 'gold', info: null, imageVersion: null });
    expect(host.calls.some((c) => c.url === 'project/createProject')).toBe(false);
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(host.toasts.map((x) => x.message)).toEqual(['已从模板创建项目']);
    expect(host.location()).toEqual({ pathname: '/workflow/table-correlation', search: { projectId: saved.projectId, solutionId: 'S1', guide: 'true' } });
  });

  it('stays on the page when the guided run is unticked', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US', location: { pathname: '/all-project', search: {} } });
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    host.mockCall('template/createProject', { data: { project: saved, templateId: 'coupon', solutionId: 'S1', datasetId: 'D1', objectiveId: 'O1' } });
    const onClose = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose } });
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.change(screen.getByTestId('project-industry'), { target: { value: 'coupon' } });
    fireEvent.click(screen.getByTestId('project-guided'));
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.location().pathname).toBe('/all-project');
    expect(host.toasts.map((x) => x.message)).toEqual(['Project created from the template']);
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

  it('gives the focus the busy Create dropped back to it when the server refuses, so Escape still closes the dialog', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    const gate = heldBack();
    host.mockCall('project/createProject', async () => {
      await gate.wait;
      return { code: ErrorCode.projectNameUsed, message: 'Project name already exists' };
    });
    const onClose = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose } });
    // Blueprint brings the focus into the dialog once it has opened (in an animation frame).
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    const submit = screen.getByTestId('project-submit') as HTMLButtonElement;
    await pressBusy(submit);
    await act(async () => gate.release());
    expect(await screen.findByText('Project name already exists')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(submit));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('ProjectDialog (default algorithm image version)', () => {
  afterEach(() => cleanup());
  const VERSIONS = { data: { rows: [{ version: '1.2.0', workers: null }, { version: '2.0.0', workers: null }] } };
  const options = () => Array.from((screen.getByTestId('project-image-version') as HTMLSelectElement).options).map((o) => [o.value, o.textContent]);

  it('offers "Default (any)" and the listed versions, and creates with the one chosen', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('atmVersion/getAtmVersionList', VERSIONS);
    host.mockCall('project/createProject', { data: { ...saved, industryTemplate: null, imageVersion: '2.0.0' } });
    const onClose = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose } });
    await waitFor(() => expect(options()).toEqual([['', 'Default (any)'], ['1.2.0', '1.2.0'], ['2.0.0', '2.0.0']]));
    expect(screen.getByText('Default algorithm image version')).toBeTruthy();
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.change(screen.getByTestId('project-image-version'), { target: { value: '2.0.0' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.calls.find((c) => c.url === 'project/createProject')!.body).toEqual({ name: 'Pricing', colour: 'ocean', industryTemplate: null, info: null, imageVersion: '2.0.0' });
  });

  it('passes the version to a template project and shows the server\'s refusal under the field, in Chinese', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'zh-CN' });
    host.mockCall('atmVersion/getAtmVersionList', VERSIONS);
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    host.mockCall('template/createProject', { code: ErrorCode.paramInvalid, message: '参数不合法', errors: { imageVersion: '请选择列表中的引擎版本（在线机器的版本）' } });
    await renderPanel(ProjectDialog as never, { host, props: { onClose: () => {} } });
    await waitFor(() => expect(options()[0]).toEqual(['', '默认（任意）']));
    expect(screen.getByText('默认算法镜像版本')).toBeTruthy();
    fireEvent.change(screen.getByTestId('project-name'), { target: { value: 'Pricing' } });
    fireEvent.change(screen.getByTestId('project-industry'), { target: { value: 'electric' } });
    fireEvent.change(screen.getByTestId('project-image-version'), { target: { value: '1.2.0' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    expect(await screen.findByText('请选择列表中的引擎版本（在线机器的版本）')).toBeTruthy();
    expect(host.calls.find((c) => c.url === 'template/createProject')!.body).toMatchObject({ templateId: 'electric', imageVersion: '1.2.0' });
  });

  it('keeps an edited project\'s version whose machines are offline, and clears it with "Default (any)"', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('atmVersion/getAtmVersionList', VERSIONS);
    host.mockCall('project/editProject', { data: { ...saved, imageVersion: null } });
    const onClose = vi.fn();
    await renderPanel(ProjectDialog as never, { host, props: { onClose, project: { ...saved, imageVersion: '0.9.0' } } });
    await waitFor(() => expect(options()).toEqual([['', 'Default (any)'], ['1.2.0', '1.2.0'], ['2.0.0', '2.0.0'], ['0.9.0', '0.9.0 (no machine online)']]));
    expect((screen.getByTestId('project-image-version') as HTMLSelectElement).value).toBe('0.9.0');
    fireEvent.change(screen.getByTestId('project-image-version'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('project-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(host.calls.find((c) => c.url === 'project/editProject')!.body).toMatchObject({ projectId: saved.projectId, imageVersion: null });
  });
});
