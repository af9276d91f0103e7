/**
 * Issue 20 items 1, 2 and 4 in real Chromium against the real server: a signed-in user opens the
 * template centre from the side menu, filters by industry, previews the electric template and
 * creates a project from it; the template written from the SDK docs alone (plugin
 * template-inventory, industry retail) shows in its own tab in Chinese, found through the palette,
 * with its measured report, and makes a project; a visitor who is not signed in runs the public
 * electric demo (a room's charts, a decision for an over-temperature state, its result) in both
 * languages.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Database } from '../../server/src/db/database';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

describe('template centre and the public electric demo', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a project from the template centre', async () => {
    const context: BrowserContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('decisio.locale', 'en-US'));
    const page: Page = await context.newPage();
    reportPageErrors(page);
    const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
    let user: TestUser;
    try {
      user = await createUser({ app: { db } } as unknown as TestServer);
    } finally {
      await db.close();
    }
    await page.goto('/sign-in');
    await page.getByTestId('signin-username').fill(user.username);
    await page.getByTestId('signin-password').fill(user.password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('side-menu-templates.menu').click();
    await page.waitForURL(/\/template-center$/);
    await page.getByTestId('template-coupon').waitFor();
    await page.getByRole('tab', { name: 'Electric' }).click();
    await page.waitForURL(/\/template-center\/industry\/electric$/);
    expect(await page.getByTestId('template-coupon').count()).toBe(0);
    expect(await page.getByTestId('template-electric-sample').locator('tbody tr').count()).toBe(8);
    await shot(page, 'template-centre-electric');
    await page.getByTestId('template-electric-create').click();
    await page.waitForURL(/\/workflow\/table-correlation\?.*projectId=/);
    await context.close();
  });

  it('shows the plugin template written from the SDK docs in its industry and creates a project from it (zh-CN)', async () => {
    const context: BrowserContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await context.addInitScript(() => localStorage.setItem('decisio.locale', 'zh-CN'));
    const page: Page = await context.newPage();
    reportPageErrors(page);
    const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
    let user: TestUser;
    try {
      user = await createUser({ app: { db } } as unknown as TestServer);
    } finally {
      await db.close();
    }
    await page.goto('/sign-in');
    await page.getByTestId('signin-username').fill(user.username);
    await page.getByTestId('signin-password').fill(user.password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/dashboard/);
    // The template plugin's own palette command opens its industry.
    await page.getByTestId('side-menu-templates.menu').waitFor();
    await page.keyboard.press('F1');
    await page.getByTestId('command-palette-input').fill('模板中心：零售');
    await expect.poll(() => page.locator('[data-testid="command-palette-list"] [data-testid^="command-"]').first().getAttribute('data-testid')).toBe('command-template-inventory.open');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/template-center\/industry\/retail$/);
    await page.getByTestId('template-inventory').waitFor();
    expect(await page.getByRole('tab', { name: '零售' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('template-electric').count()).toBe(0);
    expect(await page.getByTestId('template-inventory').getByText('门店补货（零售）').count()).toBe(1);
    expect(await page.getByTestId('template-inventory-sample').locator('tbody tr').count()).toBe(8);
    // The report renderer's figures, measured on the template's data.
    expect(await page.getByTestId('template-inventory-results').textContent()).toContain('5 家门店共 300 天');
    await page.getByTestId('template-inventory-figure-meanMargin').waitFor();
    await shot(page, 'template-centre-retail-zh');
    await page.getByTestId('template-inventory-create').click();
    await page.waitForURL(/\/workflow\/table-correlation\?.*projectId=/);
    await context.close();
  });

  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`runs the electric demo signed out (${locale})`, async () => {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, locale });
      // The language is the one kept in local storage (the browser's is not read).
      await context.addInitScript((l) => localStorage.setItem('decisio.locale', l), locale);
      const page = await context.newPage();
      reportPageErrors(page);
      await page.goto('/electric');
      expect(await page.getByTestId('electric-model').textContent()).toContain(locale === 'en-US' ? 'not a trained reinforcement-learning policy' : '不是训练出的强化学习策略');
      await page.getByTestId('electric-open-330').waitFor();
      await page.getByTestId('electric-open-330').click();
      await page.waitForURL(/\/electric\/330$/);
      await page.getByTestId('electric-summary').waitFor();
      await page.getByTestId('electric-temperature').fill('9');
      await page.getByTestId('electric-decide').click();
      await page.waitForURL(/\/electric\/330\/result\?decisionId=/);
      await page.getByTestId('electric-comparison').waitFor();
      expect(await page.getByTestId('electric-decision').textContent()).toContain(locale === 'en-US' ? 'the model sets the cooling power to 10.00' : '模型将制冷功率设为 10.00');
      await shot(page, `electric-result-${locale}`);
      await page.goto('/electric/connect');
      await page.locator('#ec-name').waitFor();
      await context.close();
    });
  }
});
