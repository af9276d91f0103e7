/**
 * Issue 17 items 1 and 5 in the screens: the reward list shows names with the "broken" mark and
 * its message, a reward saved broken says so (not "Saved"), the policy, tuning and deduction
 * forms do not offer a broken reward, and the deduction and tuning forms send the chosen
 * initial (search) dataset. A failed save's message (no one field's) shows in the SDK's
 * form-error callout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef, unsavedChanges } from '@decisio/sdk-plugin';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { rewardPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const SOLUTION = 'a'.repeat(32);
const PROJECT = 'p'.repeat(32);
const panel = (id: string) => rewardPlugin.panels.find((p) => p.id === id)!;
const host = (locale: 'zh-CN' | 'en-US') => createTestHost({ plugins: [trainingsKitPlugin, rewardPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/objective', search: { projectId: PROJECT, solutionId: SOLUTION } } });
const empty = { data: { rows: [], total: 0 } };
const GOOD = { id: 'g'.repeat(32), name: 'profit', description: 'a long description of the profit reward', files: null, checkState: 'checked', checkMessage: null };
const BROKEN = { id: 'b'.repeat(32), name: 'typo', description: 'the broken one', files: null, checkState: 'broken', checkMessage: 'reward.py:1: SyntaxError: expected \':\'' };
const REWARDS = { data: { rows: [GOOD, BROKEN], total: 2 } };
const DONE_ENV = { data: { rows: [{ id: 'e'.repeat(32), code: 'E-1', name: 'venv', state: 'successful', progress: 1, durationMs: 1 }], total: 1 } };
const DATASETS = { data: { rows: [{ tableId: 'd'.repeat(32), name: 'start states', amount: 42, type: 'decision', columns: [] }], total: 1, page: 1, pageSize: 100 } };

const optionTexts = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

describe('reward list and check state', () => {
  afterEach(() => cleanup());

  it('lists rewards by name with the broken mark and its message, in both languages', async () => {
    for (const [locale, mark] of [['en-US', 'Broken'], ['zh-CN', '有错误']] as const) {
      const h = host(locale);
      h.mockCall('objective/list', REWARDS);
      await renderPanel(panel('reward.list'), { host: h });
      const items = await screen.findAllByTestId('reward-item');
      expect(items.map((i) => i.getAttribute('data-check'))).toEqual(['checked', 'broken']);
      // The name is the item's text; the description is not shown in its place.
      expect(items[0]!.textContent).toContain('profit');
      expect(items[0]!.textContent).not.toContain('a long description');
      expect(items[1]!.textContent).toContain('typo');
      const tag = within(items[1]!).getByTestId('reward-broken');
      expect(tag.textContent).toBe(mark);
      expect(tag.getAttribute('title')).toContain("SyntaxError: expected ':'");
      expect(within(items[0]!).queryByTestId('reward-broken')).toBeNull();
      cleanup();
    }
  });

  it("opens the chosen reward's editor only once its detail is there (never the previous one's under its name), and says when it cannot be loaded", async () => {
    const h = host('en-US');
    const gate = heldBack();
    h.mockCall('objective/list', REWARDS);
    h.mockCall('objective/detail', async (body) => {
      if ((body as { id: string }).id === GOOD.id) return { data: { ...GOOD, files: { 'reward.py': '# profit\n' }, policyList: [] } };
      await gate.wait;
      return { code: 500, message: 'database away' };
    });
    await renderPanel(panel('reward.list'), { host: h });
    const items = await screen.findAllByTestId('reward-item');
    fireEvent.click(items[0]!);
    await waitFor(() => expect((screen.getByTestId('reward-name') as HTMLInputElement).value).toBe('profit'));
    fireEvent.click(items[1]!);
    await waitFor(() => expect(h.calls.some((c) => c.url === 'objective/detail' && (c.body as { id: string }).id === BROKEN.id)).toBe(true));
    expect(screen.queryByTestId('reward-name')).toBeNull();
    gate.release();
    expect((await screen.findByTestId('reward-load-failed')).textContent).toContain('Could not load');
    expect(screen.getByTestId('reward-load-failed').textContent).toContain('database away');
  });

  it("starts afresh in another solution: no editor of the previous one's open, its list only once answered", async () => {
    const OTHER = 'o'.repeat(32);
    const h = host('en-US');
    const gate = heldBack();
    h.mockCall('objective/list', async (body) => {
      if ((body as { solutionId: string }).solutionId !== OTHER) return REWARDS;
      await gate.wait;
      return { data: { rows: [{ ...GOOD, id: 'x'.repeat(32), name: 'theirs' }], total: 1 } };
    });
    await renderPanel(panel('reward.list'), { host: h });
    await screen.findAllByTestId('reward-item');
    fireEvent.click(screen.getAllByTestId('modelling-new')[0]!);
    fireEvent.change(await screen.findByTestId('reward-name'), { target: { value: 'half typed' } });
    act(() => h.services.get(navigationServiceRef).navigate('/workflow/objective', { search: { projectId: PROJECT, solutionId: OTHER } }));
    await waitFor(() => expect(screen.queryByTestId('reward-name')).toBeNull());
    expect(screen.queryAllByTestId('reward-item')).toEqual([]);
    gate.release();
    await waitFor(() => expect(screen.getAllByTestId('reward-item').map((i) => i.textContent)).toEqual(['theirs']));
    expect(screen.queryByTestId('reward-name')).toBeNull();
  });

  it('asks before unsaved edits are lost: another reward, "New reward" or a navigation; not when clean or saved', async () => {
    const h = host('en-US');
    h.mockCall('objective/list', REWARDS);
    h.mockCall('objective/detail', (body) => {
      const r = (body as { id: string }).id === GOOD.id ? GOOD : BROKEN;
      return { data: { ...r, files: { 'reward.py': `# ${r.name}\n` }, policyList: [] } };
    });
    h.mockCall('objective/edit', (body) => ({ data: { ...GOOD, ...(body as object), checkState: 'checked' } }));
    await renderPanel(panel('reward.list'), { host: h });
    const items = await screen.findAllByTestId('reward-item');
    const nameIs = (v: string) => waitFor(() => expect((screen.getByTestId('reward-name') as HTMLInputElement).value).toBe(v));
    // clean: another reward opens without a question
    fireEvent.click(items[1]!);
    await nameIs('typo');
    fireEvent.click(items[0]!);
    await nameIs('profit');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(unsavedChanges.hasUnsavedChanges()).toBe(false);

    fireEvent.change(document.getElementById('reward-desc')!, { target: { value: 'changed' } });
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(true));
    // another reward: Stay keeps the edit
    fireEvent.click(items[1]!);
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Leave this page? Your unsaved changes will be lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), { timeout: 5000 });
    expect((screen.getByTestId('reward-name') as HTMLInputElement).value).toBe('profit');
    expect((document.getElementById('reward-desc') as HTMLInputElement).value).toBe('changed');
    // the workbench's navigation asks the same question
    let leave: boolean | undefined;
    act(() => void unsavedChanges.confirmLeave().then((r) => (leave = r)));
    fireEvent.keyDown(await screen.findByRole('alertdialog'), { key: 'Escape' });
    await waitFor(() => expect(leave).toBe(false));
    // "New reward": Leave drops the edit
    fireEvent.click(screen.getAllByTestId('modelling-new')[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    await nameIs('');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), { timeout: 5000 });
    expect(unsavedChanges.hasUnsavedChanges()).toBe(false);

    // saved: clean again, another reward opens without a question
    fireEvent.click(items[0]!);
    await nameIs('profit');
    fireEvent.change(document.getElementById('reward-desc')!, { target: { value: 'saved now' } });
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(true));
    fireEvent.click(screen.getByTestId('reward-save'));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'objective/edit')).toBe(true));
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(false));
    fireEvent.click(items[1]!);
    await nameIs('typo');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('disables New reward, Save and Delete for a view collaborator, with the reason as tooltip', async () => {
    const h = host('en-US');
    h.mockCall('project/getProject', { data: { projectId: PROJECT, name: 'P', locked: false, right: 'view' } });
    h.mockCall('objective/list', REWARDS);
    h.mockCall('objective/detail', { data: { ...GOOD, files: { 'reward.py': '# profit\n' }, policyList: [] } });
    await renderPanel(panel('reward.list'), { host: h });
    const reason = 'You can only view this project: ask its owner for the edit right to change it.';
    await waitFor(() => expect(screen.getAllByTestId('modelling-new')[0]!.getAttribute('title')).toBe(reason));
    expect((screen.getAllByTestId('modelling-new')[0] as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click((await screen.findAllByTestId('reward-item'))[0]!);
    const save = (await screen.findByTestId('reward-save')) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.getAttribute('title')).toBe(reason);
    const del = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(del.disabled).toBe(true);
    expect(del.getAttribute('title')).toBe(reason);
  });

  it('says a reward saved broken is broken, with the message, instead of "Saved"', async () => {
    const h = host('en-US');
    let saved = false;
    h.mockCall('objective/list', () => (saved ? { data: { rows: [BROKEN], total: 1 } } : empty));
    h.mockCall('objective/create', { data: { ...BROKEN, files: { 'reward.py': 'def get_reward(data)\n' } } });
    // After the save the editor shows the saved reward (its detail, with the check).
    h.mockCall('objective/detail', { data: { ...BROKEN, files: { 'reward.py': 'def get_reward(data)\n' }, policyList: [] } });
    await renderPanel(panel('reward.list'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    fireEvent.change(await screen.findByTestId('reward-name'), { target: { value: 'typo' } });
    saved = true;
    fireEvent.click(screen.getByTestId('reward-save'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe("Saved, but the reward is broken: reward.py:1: SyntaxError: expected ':'"));
    expect(h.toasts.some((t) => t.message === 'Saved')).toBe(false);
    expect((await screen.findByTestId('reward-check-broken')).textContent).toContain('cannot be chosen for training');
  });

  it('shows a failed save\'s message once, in the SDK\'s form-error callout', async () => {
    const h = host('en-US');
    h.mockCall('objective/list', empty);
    h.mockCall('objective/create', { code: 1019, message: 'Platform error' });
    await renderPanel(panel('reward.list'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    fireEvent.change(await screen.findByTestId('reward-name'), { target: { value: 'profit' } });
    expect(screen.queryByTestId('form-error')).toBeNull();
    fireEvent.click(screen.getByTestId('reward-save'));
    const callout = await screen.findByTestId('form-error');
    expect(callout.textContent).toBe('Platform error');
    expect(within(screen.getByTestId('reward-editor')).getAllByTestId('form-error')).toHaveLength(1);
  });
});
