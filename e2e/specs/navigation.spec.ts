/**
 * Navigation in real Chromium against the real server (issue 16, "the whole flow reachable"):
 * a new user with a trained policy and a model service (the scripted flow of `npm run flow` and
 * `modeldeploy/create`, through the same HTTP API the workbench uses) reaches deploy, the call
 * records of the service and the deductions without typing an address: first through the
 * projects page and the side menu, then through the command palette (F1, typing "deploy",
 * Enter; Ctrl+Shift+P, an English word in the Chinese interface). Escape closes the palette
 * and leaves the step guide open; pressed on the page, it collapses the guide.
 * Screenshots go to `e2e/artifacts/navigation-*`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runFlow } from '../../server/scripts/flow';
import { apiCall, newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const user = newUser('e2enav');

let browser: Browser;
let context: BrowserContext;
let page: Page;
const ids = { projectId: '', solutionId: '', serviceId: '' };

/** The page's path and query parameters. */
function where(): { pathname: string; search: Record<string, string> } {
  const u = new URL(page.url());
  return { pathname: u.pathname, search: Object.fromEntries(u.searchParams) };
}

/** Opens the palette with `key`, types `query` and waits for `first` to be the first entry. */
async function palette(key: string, query: string, first: string): Promise<void> {
  await page.keyboard.press(key);
  const input = page.getByTestId('command-palette-input');
  await input.waitFor();
  await input.fill(query);
  await expect.poll(() => page.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe(`command-${first}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseUrl);
  page = await context.newPage();
  reportPageErrors(page);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shot(page, `navigation-failed-${ctx.task.name.slice(0, 40)}`).catch(() => undefined);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('navigation: deploy, call records and deductions without typing an address', () => {
  it('signs a new user up and in, trains a policy and deploys it (through the api)', async () => {
    await signUpAndIn(page, user, 'Navigator');
    const flow = await runFlow({ url: baseUrl, username: user.username, password: user.password, epochs: 4, policyEpochs: 2, log: () => undefined });
    ids.projectId = flow.projectId;
    ids.solutionId = flow.solutionId;
    const policyId = flow.jobs.find((j) => j.step.startsWith('policy training'))!.recordId;
    const created = await apiCall<{ id: string }>(page, 'modeldeploy/create', { serviceName: 'nav service', policyId });
    ids.serviceId = created.id;
    expect(ids.serviceId).toMatch(/^[0-9a-f]{32}$/);
  }, 600_000);

  it('reaches the project, deploy, the call records and the deductions through the side menu', async () => {
    await page.getByTestId('side-menu-projects.all').click();
    await page.waitForURL(/\/all-project/);
    await page.getByTestId(`project-row-${ids.projectId}`).locator('.dc-projects-row-name').click();
    await page.getByTestId(`solution-row-${ids.solutionId}`).getByTestId('solution-open').click();
    await page.waitForURL(/\/project\/workbench\?/);
    expect(where().search).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });
    await page.getByTestId('workflow-workbench').waitFor();
    // The workbench lists the areas after training.
    await page.getByTestId('workflow-area-deploy').waitFor();
    await shot(page, 'navigation-workbench');

    await page.getByTestId('side-menu-deploy.menu-deploy').click();
    await page.waitForURL(/\/project\/deploy\?/);
    expect(where().search).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });
    await page.getByText('nav service').first().click();
    await page.waitForURL(/\/project\/deploy-detail\?/);
    expect(where().search.serviceId).toBe(ids.serviceId);
    // The call records of the service (none yet).
    await page.getByText('调用记录', { exact: true }).first().waitFor();
    await page.getByText('还没有调用记录').waitFor();
    expect(await page.getByTestId('side-menu-deploy.menu-deploy').getAttribute('class')).toContain('bp6-active');
    await shot(page, 'navigation-call-records');

    await page.getByTestId('side-menu-deduction.menu-simulation').click();
    await page.waitForURL(/\/workflow\/simulator\/simulation\?/);
    await page.getByTestId('modelling-simulation').waitFor();
    expect(where().search).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });
    await page.getByTestId('side-menu-deduction.menu-decision').click();
    await page.waitForURL(/\/workflow\/policy\/decision\?/);
    await page.getByTestId('modelling-decision').waitFor();
    await shot(page, 'navigation-deductions');
  });

  it('reaches deploy, the call records and the deductions through the command palette', async () => {
    // F1, "deploy", Enter.
    await palette('F1', 'deploy', 'deploy.open-deploy');
    expect(await page.getByTestId('command-deploy.open-deploy').textContent()).toContain('部署策略');
    await shot(page, 'navigation-palette-deploy');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/project\/deploy\?/);
    expect(where().search).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });
    await page.getByText('nav service').first().click();
    await page.waitForURL(/\/project\/deploy-detail\?/);

    // Ctrl+Shift+P, an English word in the Chinese interface: the simulation deduction.
    await palette('Control+Shift+P', 'simulation deduction', 'deduction.open-simulation');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workflow\/simulator\/simulation\?/);
    await page.getByTestId('modelling-simulation').waitFor();
    expect(where().search).toMatchObject({ projectId: ids.projectId, solutionId: ids.solutionId });

    // "调用记录" (call records) leads to the project's services; the arrows move, Escape closes.
    await palette('F1', '调用记录', 'deploy.open-records');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('command-palette-input').count()).toBe(0);
    expect(where().pathname).toBe('/workflow/simulator/simulation');
    await palette('F1', '调用记录', 'deploy.open-records');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/project\/deploy\?/);
    await page.getByText('nav service').first().click();
    await page.waitForURL(/\/project\/deploy-detail\?/);
    await page.getByText('还没有调用记录').waitFor();
    // On a service's page the same command scrolls to its call records.
    const records = page.getByTestId('deploy-records-section');
    const before = (await records.boundingBox())!.y;
    await palette('F1', 'call records', 'deploy.open-records');
    await page.keyboard.press('Enter');
    await page.waitForURL(/section=records/);
    expect(where().search).toMatchObject({ projectId: ids.projectId, serviceId: ids.serviceId, section: 'records' });
    const viewport = page.viewportSize()!.height;
    await expect.poll(async () => (await records.boundingBox())!.y).toBeLessThan(viewport - 100);
    console.info(`[navigation] call records moved from y=${Math.round(before)} to y=${Math.round((await records.boundingBox())!.y)} (viewport ${viewport})`);
    await shot(page, 'navigation-palette-call-records');

    // And the decision deduction.
    await palette('F1', '决策推演', 'deduction.open-decision');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/workflow\/policy\/decision\?/);
    await page.getByTestId('modelling-decision').waitFor();
    await shot(page, 'navigation-palette-decision');
  });

  it('Escape closes the palette without touching the step guide, then collapses the guide from anywhere', async () => {
    await page.goto(`/workflow/simulator/simulation?projectId=${ids.projectId}&solutionId=${ids.solutionId}&guide=true`);
    const toggle = page.getByTestId('workflow-guide-toggle');
    await toggle.waitFor();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('modelling-simulation').waitFor();
    // Escape in the palette is the palette's.
    await palette('F1', 'deploy', 'deploy.open-deploy');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('command-palette-input').count()).toBe(0);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // Focus on the page, not in the guide: Escape collapses it (README "Guided first run").
    await page.getByTestId('modelling-simulation').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await shot(page, 'navigation-guide-collapsed');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('the open guide covers no call record and leaves the pages their full width', async () => {
    const rect = (testId: string) => page.getByTestId(testId).evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
    const mainRect = () => page.locator('.dc-console-main').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
    const viewport = page.viewportSize()!;
    await page.goto(`/project/deploy-detail?projectId=${ids.projectId}&solutionId=${ids.solutionId}&serviceId=${ids.serviceId}&section=records&guide=true`);
    const records = page.getByTestId('deploy-records-section');
    await records.waitFor();
    const toggle = page.getByTestId('workflow-guide-toggle');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    // The guide is docked below the page: the page (and so the records table) ends above it.
    await expect.poll(async () => (await mainRect()).bottom - (await rect('workflow-guide')).top).toBeLessThanOrEqual(1);
    await records.scrollIntoViewIfNeeded();
    const r = await rect('deploy-records-section');
    const g = await rect('workflow-guide');
    expect(r.top).toBeLessThan(g.top);
    // ... at the full width beside the side menu.
    const side = await rect('side-menu');
    expect((await mainRect()).width).toBeGreaterThanOrEqual(viewport.width - side.width - 2);
    await shot(page, 'navigation-guide-records');
    // The project workbench takes the page's whole width too.
    await palette('F1', 'project workbench', 'workflow.open-workflow');
    await page.keyboard.press('Enter');
    await page.getByTestId('workflow-workbench').waitFor();
    const main = await mainRect();
    expect((await rect('workflow-workbench')).width).toBeGreaterThanOrEqual(main.width - 40);
    await shot(page, 'navigation-guide-workbench');
  });
});
