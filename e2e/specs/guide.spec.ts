/**
 * Guided first run in real Chromium against the real server (issue 8, the guide overlay on
 * `guide`): a new user signs up and in, starts the guided first run from the dashboard's electric
 * template card, lands on the data-access step of the seeded project with the step guide shown
 * (the workflow plugin's overlay contribution, in place of the workbench's generic guide note),
 * sees the seeded dataset and table correlation, goes on with "Next step" to the decision graph
 * with the seeded graph, collapses the guide with Escape and ends it. Screenshots of each screen
 * in both themes go to `e2e/artifacts/guide-*`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const user = newUser('e2eg');

let browser: Browser;
let context: BrowserContext;
let page: Page;
const ids = { projectId: '', solutionId: '' };

/** Screenshot in the current theme, then in the other one, then back. */
async function shotBoth(name: string): Promise<void> {
  const toggle = page.getByTestId('theme-switch');
  const first = (await toggle.getAttribute('data-theme')) ?? 'light';
  await shot(page, `guide-${name}-${first}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).not.toBe(first);
  await shot(page, `guide-${name}-${first === 'light' ? 'dark' : 'light'}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).toBe(first);
}

/** The query parameters of the page's address. */
function search(): Record<string, string> {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseUrl);
  page = await context.newPage();
  reportPageErrors(page);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shot(page, `guide-failed-${ctx.task.name.slice(0, 40)}`).catch(() => undefined);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('guide: a guided first run through the electric template', () => {
  it('starts from the dashboard’s template card and lands on data access with the step guide', async () => {
    await signUpAndIn(page, user, 'Guide');
    const card = page.getByTestId('guided-template-electric');
    await card.waitFor();
    expect(await card.textContent()).toContain('冷库温控（电力）');
    await shotBoth('dashboard');
    await page.getByTestId('guided-start-electric').click();

    await page.waitForURL(/\/workflow\/table-correlation\?/, { timeout: 30_000 });
    const q = search();
    expect(q.guide).toBe('true');
    expect(q.projectId).toBeTruthy();
    expect(q.solutionId).toBeTruthy();
    ids.projectId = q.projectId!;
    ids.solutionId = q.solutionId!;

    // The step guide shows in place of the workbench's generic guide note.
    const guide = page.getByTestId('workflow-guide');
    await guide.waitFor();
    expect(await page.getByTestId('workflow-guide-count').textContent()).toBe('第 1 步，共 8 步');
    expect(await page.getByTestId('workflow-guide-step-dataAccess').getAttribute('class')).toBe('is-current');
    expect(await page.getByTestId('workflow-guide-hint').textContent()).toContain('轨迹、序列和时间字段');
    expect(await page.getByTestId('guide-overlay').count()).toBe(0);
    // It is rendered by the workbench's overlay area (its own React tree), not a root of its own.
    expect(await page.locator('#root [data-overlay="workflow.guide"] [data-testid="workflow-guide"]').count()).toBe(1);

    // The seeded dataset is the primary table, its fields set as the template's.
    await page.getByTestId('correlation-panel').waitFor();
    const table = page.getByTestId('corr-table-0');
    await expect.poll(() => table.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ''), { timeout: 15_000 }).toContain('冷库历史数据');
    expect(await table.inputValue()).not.toBe('');
    await expect.poll(() => page.getByTestId('corr-trajectory').inputValue()).toBe('room');
    expect(await page.getByTestId('corr-sequence').inputValue()).toBe('step');
    expect(await page.getByTestId('corr-datetime').inputValue()).toBe('time');
    expect(await page.getByTestId('correlation-no-datasets').count()).toBe(0);
    await shotBoth('data-access');
  });

  it('goes on with "Next step" to the decision graph with the seeded graph', async () => {
    const next = page.getByTestId('workflow-guide-next');
    expect(await next.textContent()).toBe('下一步：决策流图');
    await next.click();
    await page.waitForURL(/\/workflow\/pattern\?/);
    expect(search()).toMatchObject({ guide: 'true', projectId: ids.projectId, solutionId: ids.solutionId });
    await expect.poll(() => page.getByTestId('workflow-guide-step-pattern').getAttribute('class')).toBe('is-current');
    expect(await page.getByTestId('workflow-guide-step-dataAccess').getAttribute('class')).toBe('is-done');
    expect(await page.getByTestId('workflow-guide-count').textContent()).toBe('第 2 步，共 8 步');

    await page.getByTestId('pattern-editor').waitFor();
    for (const node of ['temperature', 'door_open', 'action', 'next_temperature']) {
      await page.getByTestId(`pattern-node-${node}`).waitFor({ timeout: 20_000 });
    }
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBeGreaterThanOrEqual(3);
    // The open guide is docked at the bottom and the page ends above it: every node stays inside the canvas.
    const inside = async () => {
      const canvas = await page.getByTestId('pattern-canvas').boundingBox();
      const nodes = await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      return !!canvas && nodes.length >= 4 && nodes.every((n) => n.left >= canvas.x - 1 && n.right <= canvas.x + canvas.width + 1 && n.top >= canvas.y - 1 && n.bottom <= canvas.y + canvas.height + 1);
    };
    await expect.poll(inside, { timeout: 10_000 }).toBe(true);
    // ... and keeps room for the graph: the field list and the inspector narrow beside the guide
    const canvasWidth = (await page.getByTestId('pattern-canvas').boundingBox())!.width;
    console.info(`[guide] canvas width with the guide open: ${Math.round(canvasWidth)} px`);
    expect(canvasWidth).toBeGreaterThan(400);
    expect(await page.getByTestId('guide-overlay').count()).toBe(0);
    await shotBoth('pattern');
  });

  it('collapses the guide with Escape and ends it', async () => {
    const toggle = page.getByTestId('workflow-guide-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('workflow-guide-next').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('workflow-guide-next').count()).toBe(0);
    expect(await page.getByTestId('workflow-guide-step-pattern').count()).toBe(0);
    // Focus goes to the toggle.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('workflow-guide-toggle');
    await shotBoth('collapsed');
    // The theme switch took the focus for the screenshots; back to the toggle, which reopens it.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');

    await page.getByTestId('workflow-guide-close').click();
    await expect.poll(() => search().guide).toBeUndefined();
    expect(search()).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });
    await page.getByTestId('workflow-guide').waitFor({ state: 'detached' });
    // Guide off: neither the step guide nor the generic note; the graph stays.
    expect(await page.getByTestId('guide-overlay').count()).toBe(0);
    expect(await page.getByTestId('pattern-node-temperature').isVisible()).toBe(true);
    await shot(page, 'guide-ended');
  });
});
