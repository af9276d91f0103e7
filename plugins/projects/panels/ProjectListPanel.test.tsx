import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Page, ProjectItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { projectsPlugin } from '../index';

const listPanel = projectsPlugin.panels.find((p) => p.id === 'projects.list')!;

function project(over: Partial<ProjectItem> = {}): ProjectItem {
  return {
    projectId: 'a'.repeat(32),
    name: 'Pricing',
    colour: 'volcano',
    industryTemplate: 'coupon',
    info: 'Coupon pricing',
    imageVersion: null,
    locked: false,
    favourite: false,
    ownerId: 'b'.repeat(32),
    ownerName: 'alice',
    right: 'owner',
    solutionCount: 2,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-02T10:00:00.000Z',
    ...over,
  };
}
const page = (rows: ProjectItem[]): Page<ProjectItem> => ({ rows, total: rows.length, page: 1, pageSize: 20 });

/**
 * Opens the More menu of the row `row` as a browser does from a focused More button (jsdom focuses
 * nothing on a click) and finds its item `item`, not clicked yet.
 */
async function menuItemOf(row: string, item: string): Promise<{ more: HTMLElement; menuItem: HTMLElement }> {
  const more = await screen.findByRole('button', { name: `Actions for ${row}` });
  more.focus();
  fireEvent.click(more);
  return { more, menuItem: await screen.findByRole('menuitem', { name: item }) };
}

/**
 * What `check` returns once it passes, with the fake clock standing still: each try runs what is due
 * now (timers of zero, promises, React's work), up to 200 tries.
 */
async function onStillClock<T>(check: () => T): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return check();
    } catch (e) {
      if (i >= 200) throw e;
    }
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

/** The list of one project, Pricing, rendered. */
async function renderPricing() {
  const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
  host.mockCall('project/getProjectList', { data: page([project()]) });
  await renderPanel(listPanel, { host });
  return host;
}

describe('ProjectListPanel', () => {
  afterEach(() => cleanup());

  it('shows the loading state, then the projects with colour, template, owner and right', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectList', {
      data: page([project(), project({ projectId: 'c'.repeat(32), name: 'Grid', colour: 'green', industryTemplate: null, right: 'view', favourite: true })]),
    });
    await renderPanel(listPanel, { host });
    // The first render waits for the answer: a spinner, no rows yet.
    expect(document.querySelector('.bp6-spinner')).toBeTruthy();
    expect(screen.queryByTestId('projects-rows')).toBeNull();
    const rows = await screen.findByTestId('projects-rows');
    expect(within(rows).getByText('Pricing')).toBeTruthy();
    expect(within(rows).getByText('Volcano')).toBeTruthy();
    expect(within(rows).getByText('Coupon')).toBeTruthy();
    expect(within(rows).getAllByText('Owner: alice')).toHaveLength(2);
    expect(within(rows).getByText('Can view')).toBeTruthy();
    expect(within(rows).getByRole('button', { name: 'Remove from favourites' })).toBeTruthy();
    expect(host.calls[0]).toEqual({ url: 'project/getProjectList', body: { page: 1, pageSize: 20, keyword: undefined, favourite: undefined, scope: 'all' } });
  });

  it('counts the solutions in the plural forms of English: 1 solution, 2 solutions', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectList', { data: page([project({ solutionCount: 1 }), project({ projectId: 'c'.repeat(32), name: 'Grid', solutionCount: 2 })]) });
    await renderPanel(listPanel, { host });
    expect(await screen.findByText('1 solution')).toBeTruthy();
    expect(screen.getByText('2 solutions')).toBeTruthy();
    expect(screen.queryByText('1 solutions')).toBeNull();
  });

  it('shows the empty state in both languages and opens the create dialog from it', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'zh-CN' });
    host.mockCall('project/getProjectList', { data: page([]) });
    await renderPanel(listPanel, { host });
    expect(await screen.findByText('还没有项目')).toBeTruthy();
    cleanup();
    const en = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    en.mockCall('project/getProjectList', { data: page([]) });
    await renderPanel(listPanel, { host: en });
    const empty = await screen.findByTestId('projects-empty');
    expect(within(empty).getByText('No projects yet')).toBeTruthy();
    fireEvent.click(within(empty).getByRole('button', { name: 'New project' }));
    expect(await screen.findByTestId('project-form')).toBeTruthy();
  });

  it('shows an error with a retry', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectList', 'network');
    await renderPanel(listPanel, { host });
    const error = await screen.findByTestId('projects-error');
    host.mockCall('project/getProjectList', { data: page([project()]) });
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Pricing')).toBeTruthy();
  });

  it('searches, toggles a favourite and selects a project for the solutions panel', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US', location: { pathname: '/all-project', search: { guide: 'true' } } });
    host.mockCall('project/getProjectList', (body) => {
      const keyword = (body as { keyword?: string }).keyword;
      return { data: page(keyword === 'zzz' ? [] : [project()]) };
    });
    host.mockCall('project/setFavourite', (body) => ({ data: body }));
    await renderPanel(listPanel, { host });
    fireEvent.click(await screen.findByRole('button', { name: 'Add to favourites' }));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'project/setFavourite')?.body).toEqual({ projectId: 'a'.repeat(32), favourite: true }));

    fireEvent.click(screen.getByRole('button', { name: 'Open Pricing' }));
    expect(host.location()).toEqual({ pathname: '/all-project', search: { guide: 'true', projectId: 'a'.repeat(32) } });

    fireEvent.change(screen.getByTestId('projects-search'), { target: { value: 'zzz' } });
    expect(await screen.findByTestId('projects-no-match')).toBeTruthy();
    expect(host.calls.some((c) => c.url === 'project/getProjectList' && (c.body as { keyword?: string }).keyword === 'zzz')).toBe(true);
  });

  it('deletes a project after the confirmation; collaborators cannot', async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectList', { data: page([project(), project({ projectId: 'c'.repeat(32), name: 'Theirs', right: 'edit' })]) });
    host.mockCall('project/deleteProject', (body) => ({ data: body }));
    await renderPanel(listPanel, { host });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Theirs' }));
    const theirDelete = (await screen.findByText('Delete')).closest('a,button,[role="menuitem"]') as HTMLElement;
    expect(theirDelete.getAttribute('aria-disabled') === 'true' || theirDelete.className.includes('disabled')).toBe(true);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    cleanup();

    await renderPanel(listPanel, { host });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Pricing' }));
    fireEvent.click(await screen.findByText('Delete'));
    expect((await screen.findByTestId('project-delete-body')).textContent).toContain('Pricing');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'project/deleteProject')?.body).toEqual({ projectId: 'a'.repeat(32) }));
    expect(host.toasts.map((x) => x.message)).toContain('Project deleted');
  });

  it('opens the delete confirmation with the focus on Cancel, not on Delete, so a stray Enter does not delete the project', async () => {
    const host = await renderPricing();
    const { more, menuItem: item } = await menuItemOf('Pricing', 'Delete');
    item.focus();
    // jsdom ignores a focus() on the dialog's controls while Blueprint's portal is not in the document yet
    // (Chromium honours an autoFocus there): note every control given the focus, wherever it landed.
    const given: HTMLElement[] = [];
    const focus = HTMLElement.prototype.focus;
    const spy = vi.spyOn(HTMLElement.prototype, 'focus').mockImplementation(function (this: HTMLElement, options?: FocusOptions) {
      given.push(this);
      focus.call(this, options);
    });
    try {
      fireEvent.click(item);
      await screen.findByTestId('project-delete-body');
      // The SDK Alert's rule: Cancel, not the confirm button.
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
      await new Promise((r) => setTimeout(r, 50));
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
      expect(given).not.toContain(screen.getByRole('button', { name: 'Delete' }));
    } finally {
      spy.mockRestore();
    }
    // Enter on Cancel closes it, deleting nothing; the focus goes back to More.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('project-delete-body')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(more));
    expect(host.calls.some((c) => c.url === 'project/deleteProject')).toBe(false);
    await waitFor(() => expect(item.isConnected).toBe(false));
  });

  it("gives the focus back to the row's More button when a dialog opened from its menu closes (Escape, Cancel)", async () => {
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US' });
    host.mockCall('project/getProjectList', { data: page([project(), project({ projectId: 'c'.repeat(32), name: 'Grid' })]) });
    await renderPanel(listPanel, { host });
    // Opens a row's menu and an item of it as a browser does (jsdom focuses neither on a click),
    // and waits for the menu to be gone, the dialog holding the focus.
    async function openFromMenu(row: string, item: string, inDialog: string) {
      const { more, menuItem } = await menuItemOf(row, item);
      menuItem.focus();
      fireEvent.click(menuItem);
      const overlay = (await screen.findByTestId(inDialog)).closest('.bp6-overlay')!;
      await waitFor(() => {
        expect(menuItem.isConnected).toBe(false);
        expect(overlay.contains(document.activeElement)).toBe(true);
      });
      return more;
    }
    const pricingMore = await openFromMenu('Pricing', 'Edit', 'project-form');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('project-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(pricingMore));

    const gridMore = await openFromMenu('Grid', 'Delete', 'project-delete-body');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('project-delete-body')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(gridMore));
  });

  it("keeps the focus on the dialog's field once the More menu that opened it has faded", async () => {
    await renderPricing();
    const { menuItem: edit } = await menuItemOf('Pricing', 'Edit');
    edit.focus();
    fireEvent.click(edit);
    // Chromium has the focus on the name field (autoFocus) at once; jsdom leaves it on the dialog's
    // focus trap: the test puts it there.
    const name = await screen.findByTestId('project-name');
    name.focus();
    expect(document.activeElement).toBe(name);
    // The menu fades (300 ms); a PopoverNext returning the focus to More then had the dialog's
    // focus trap take it (in Chromium: the name field lost it, and the keys typed after).
    await waitFor(() => expect(edit.isConnected).toBe(false));
    await new Promise((r) => setTimeout(r, 100));
    expect(document.activeElement).toBe(name);
  });

  it('gives the focus back to More when the menu closes with Escape, or a dialog opened from it closes before the menu has faded', async () => {
    const host = await renderPricing();
    const { more, menuItem: edit } = await menuItemOf('Pricing', 'Edit');
    // The menu opened from the keyboard has the focus on its overlay's focus trap.
    await waitFor(() => expect(document.activeElement?.classList.contains('bp6-overlay-start-focus-trap')).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(edit.isConnected).toBe(false));
    await waitFor(() => expect(document.activeElement).toBe(more));

    // Escape in the dialog at once: the item that opened it is still there, fading out with the menu.
    fireEvent.click(more);
    const item = await screen.findByRole('menuitem', { name: 'Edit' });
    // As a user, after the frame in which the menu brings the focus in (onto its trap): a frame still
    // to come would take it from More, once the dialog has closed, onto the fading menu's trap
    // (seen when the whole file ran on a loaded machine).
    await waitFor(() => expect(document.activeElement?.classList.contains('bp6-overlay-start-focus-trap')).toBe(true));
    item.focus();
    // The menu's fade is a 300 ms timeout: the clock stands still until the dialog has closed, so the
    // fade cannot end first on a loaded machine. (Testing Library's waitFor waits on setTimeout, so this
    // part steps the fake clock by zero until each check holds.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.click(item);
      const name = await onStillClock(() => screen.getByTestId('project-name'));
      name.focus();
      fireEvent.keyDown(name, { key: 'Escape' });
      await onStillClock(() => expect(screen.queryByTestId('project-form')).toBeNull());
      // On More at once, not on the fading item (where an Enter would open the dialog again).
      await onStillClock(() => expect(document.activeElement).toBe(more));
      expect(item.isConnected).toBe(true);
      // The fade ends: the focus stays on More.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(400);
      });
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(item.isConnected).toBe(false));
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement).toBe(more);
  });
});
