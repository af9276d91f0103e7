/**
 * Issue 17 item 6 in real Chromium against the real server: on a project created from the
 * electric template, the scheme form starts from the data (its fields, its date range, the
 * decision graph's fields as dimensions, types and aggregations as choices), is saved with the
 * keyboard and processes; a hyperparameter set is made with the form generated from the
 * algorithm's schema and its raw JSON. English in the light theme, Chinese in the dark one.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Database } from '../../server/src/db/database';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;

async function newUser(): Promise<TestUser> {
  const db = Database.open(`sqlite:${path.join(dataDir, 'decisio.sqlite')}`);
  try {
    return await createUser({ app: { db } } as unknown as TestServer);
  } finally {
    await db.close();
  }
}

describe('forms that start from the data', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [locale, theme] of [
    ['en-US', 'light'],
    ['zh-CN', 'dark'],
  ] as const) {
    it(`scheme and hyperparameter forms on a template project (${locale}, ${theme})`, async () => {
      const en = locale === 'en-US';
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 1000 }, locale });
      await context.addInitScript(
        (o: { locale: string; theme: string }) => {
          localStorage.setItem('decisio.locale', o.locale);
          localStorage.setItem('decisio.theme', o.theme);
        },
        { locale, theme },
      );
      const page = await context.newPage();
      reportPageErrors(page);
      const user = await newUser();
      await page.goto('/sign-in');
      await page.getByTestId('signin-username').fill(user.username);
      await page.getByTestId('signin-password').fill(user.password);
      await page.getByTestId('signin-submit').click();
      await page.waitForURL(/\/dashboard/);

      // A project from the electric template.
      await page.goto('/template-center/industry/electric');
      await page.getByTestId('template-electric-create').click();
      await page.waitForURL(/\/workflow\/table-correlation\?.*projectId=/);
      const search = new URL(page.url()).search;
      await page.goto(`/workflow/scheme${search}`);
      await page.getByTestId('modelling-new').first().click();

      // The form starts from the data: 20 rooms x 200 steps of 15 minutes from 2026-01-01 00:00 UTC.
      const range = page.getByTestId('scheme-date-range');
      await range.waitFor();
      expect(await range.textContent()).toContain(en ? 'from 2026-01-01 00:00 to 2026-01-03 01:45 (UTC)' : '从 2026-01-01 00:00 到 2026-01-03 01:45（UTC）');
      expect(await page.locator('#scheme-start').inputValue()).toBe('2026-01-01');
      expect(await page.locator('#scheme-end').inputValue()).toBe('2026-01-03');
      expect(await page.getByTestId('scheme-field').count()).toBe(7);
      const dim = (field: string) => page.getByLabel(`${en ? 'Dimension' : '维度'}: ${field}`, { exact: true });
      expect(await dim('power_action').inputValue()).toBe('agent');
      expect(await dim('obs_temp').inputValue()).toBe('environment');
      await page.getByLabel(`${en ? 'Type' : '类型'}: obs_temp`, { exact: true }).selectOption('continuous');
      await page.getByLabel(`${en ? 'Min' : '最小值'}: obs_temp`, { exact: true }).fill('-40');
      await page.getByLabel(`${en ? 'Max' : '最大值'}: obs_temp`, { exact: true }).fill('60');
      await shot(page, `scheme-form-${locale}-${theme}`);
      // Saved with the keyboard: Enter in the name field submits the form.
      await page.locator('#scheme-name').fill('first days');
      await page.locator('#scheme-name').press('Enter');
      const row = page.getByTestId('scheme-row').first();
      await row.waitFor();
      await row.getByTestId('scheme-process').click();
      await expect.poll(async () => row.getByTestId('state-tag').textContent(), { timeout: 60_000 }).toBe(en ? 'Completed' : '已完成');

      // A hyperparameter set from the form generated from BC's schema, then its raw JSON.
      await page.goto(`/hyperparameter${search}`);
      await page.getByTestId('modelling-new').first().click();
      await page.locator('#hyper-name').fill(`bc ${locale}`);
      await page.getByLabel(`${en ? 'Default' : '默认值'}: ensemble`, { exact: true }).fill('11');
      await page.getByTestId('hyper-submit').click();
      await page.getByText(en ? 'ensemble: a whole number, at least 1, at most 10' : 'ensemble：整数，不小于 1，不大于 10').waitFor();
      await shot(page, `hyper-form-${locale}-${theme}`);
      await page.getByLabel(`${en ? 'Default' : '默认值'}: ensemble`, { exact: true }).fill('3');
      // The raw JSON switch with the keyboard.
      await page.getByTestId('hyper-json-toggle').focus();
      await page.keyboard.press('Space');
      const json = page.locator('#hyper-json');
      expect(JSON.parse(await json.inputValue())).toEqual([{ name: 'ensemble', type: 'int', default: 3, searchMode: 'fixed' }]);
      await shot(page, `hyper-json-${locale}-${theme}`);
      await page.getByTestId('hyper-submit').click();
      await expect.poll(async () => page.getByText(`bc ${locale}`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await context.close();
    });
  }
});
