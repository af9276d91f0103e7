/**
 * Scheduled jobs in real Chromium against the real server (issue 19): a system administrator
 * sees the platform's resources on the dashboard's Overview tab, opens /job from the side menu, creates a cron job (the form shows its next five run times),
 * sees it fire through the job queue in the job history, pauses it, then finds its runs in the
 * system log (/system-log, filtered to scheduled jobs) with their report. Screenshots of both
 * screens in both themes go to `e2e/artifacts/`.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';

const baseUrl = inject('baseUrl');
const admin = newUser('jobs');

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Gives the user the seeded system role `admin` (kept when they hold it already), as an operator does on a fresh instance. */
function promoteToAdmin(username: string): void {
  const db = new Database(path.join(inject('dataDir'), 'decisio.sqlite'), { fileMustExist: true });
  try {
    const user = db.prepare('select id from users where username = ?').get(username) as { id: string };
    const role = db.prepare("select id from roles where code = 'admin' and tenant_id is null").get() as { id: string };
    db.prepare('insert or ignore into user_roles (user_id, role_id) values (?, ?)').run(user.id, role.id);
  } finally {
    db.close();
  }
}

async function shotBoth(name: string): Promise<void> {
  const toggle = page.getByTestId('theme-switch');
  const first = await toggle.getAttribute('data-theme');
  await shot(page, `${name}-${first}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).not.toBe(first);
  await shot(page, `${name}-${first === 'light' ? 'dark' : 'light'}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).toBe(first);
}

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseUrl);
  page = await context.newPage();
  reportPageErrors(page);
  await signUpAndIn(page, admin);
  promoteToAdmin(admin.username);
  await page.reload();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('scheduled jobs', () => {
  it('shows a system administrator the tenant and platform resources on the dashboard', async () => {
    await page.locator('.dv-tab', { hasText: /^(Overview|概览)$/ }).click();
    await page.getByTestId('overview-tenant').waitFor();
    // The platform card: at least the server's own job worker is online.
    await page.getByTestId('overview-host').waitFor();
    expect(Number((await page.getByTestId('overview-cores').textContent())!.replace(/\D+/g, ''))).toBeGreaterThan(0);
    await shotBoth('dashboard-overview');
  });

  it('creates a cron job that fires through the queue and shows in the job history', async () => {
    await page.getByTestId('language-switch').selectOption('en-US');
    await page.getByTestId('side-menu-jobs.menu').click();
    await page.waitForURL(/\/job$/);
    await page.getByTestId('jobs-panel').waitFor();
    await page.getByTestId('jobs-create').first().click();

    await page.getByTestId('job-name').fill('E2E log retention');
    await page.getByTestId('job-kind').selectOption('logs.retention');
    await page.getByTestId('job-timezone').fill('UTC');
    // An expression the server refuses says why (here: the number of fields); a good one lists the next five run times.
    await page.getByTestId('job-cron').fill('*/2 * * * * * *');
    await expect.poll(() => page.getByTestId('job-next-runs').textContent()).toMatch(/has 5 fields .*this one has 7/);
    await page.getByTestId('job-cron').fill('*/2 * * * * *');
    await expect.poll(() => page.getByTestId('job-next-runs').locator('li').count()).toBe(5);
    const times = await page.getByTestId('job-next-runs').locator('li').allTextContents();
    expect(new Set(times).size).toBe(5);
    await page.getByTestId('job-save').click();
    await page.getByTestId('job-form').waitFor({ state: 'detached' });

    const row = page.getByTestId('job-row').filter({ hasText: 'E2E log retention' });
    await row.waitFor();
    await row.getByRole('button', { name: 'History' }).click();
    await page.getByText('Job history of "E2E log retention"').waitFor();
    // The history refreshes by itself; a run goes waiting -> running -> successful on a job thread.
    await expect
      .poll(async () => page.getByTestId('job-run').filter({ hasText: 'Successful' }).count(), { timeout: 30_000, interval: 500 })
      .toBeGreaterThan(0);
    // Only this job's runs are listed (other specs' scheduled jobs run on the same server).
    expect(await page.getByTestId('job-run').filter({ hasNotText: 'E2E log retention' }).count()).toBe(0);
    const run = page.getByTestId('job-run').filter({ hasText: 'Successful' }).first();
    expect(await run.textContent()).toMatch(/Schedule/);
    expect(await run.textContent()).toMatch(/Rows deleted: \d+/);
    await shotBoth('jobs-history');

    await row.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => row.getByTestId('job-status').textContent()).toBe('Paused');
  });

  it('shows the runs in the system log, with their report', async () => {
    await page.getByTestId('side-menu-logs.menu').click();
    await page.waitForURL(/\/system-log$/);
    await page.getByTestId('log-table').waitFor();
    await page.getByTestId('log-filter-type').selectOption('job');
    const jobRows = page.getByTestId('log-row').filter({ hasText: 'job/E2E log retention' });
    // Once the filter applies, every row listed is a job's run (other specs' scheduled jobs run
    // on the same server too), and this job's runs are among them.
    await expect
      .poll(async () => {
        const jobs = await jobRows.count();
        return jobs > 0 && (await page.getByTestId('log-row').filter({ hasNotText: 'job/' }).count()) === 0;
      }, { timeout: 30_000, interval: 500 })
      .toBe(true);
    const first = jobRows.first();
    expect(await first.textContent()).toContain('CRON');
    expect(await first.textContent()).toContain('Success');
    await first.click();
    const params = await page.getByTestId('log-params').textContent();
    expect(params).toContain('"kind": "logs.retention"');
    expect(params).toMatch(/"deleted": \d+/);
    await shot(page, 'system-log-job-details');
    await page.keyboard.press('Escape');
    await page.getByTestId('log-details').waitFor({ state: 'detached' });
    await shotBoth('system-log-job');

    // The calls of the screen are in the log too: the job was saved through jobs/saveOrUpdate.
    await page.getByTestId('log-filter-type').selectOption('');
    await page.getByTestId('log-filter-call').fill('saveOrUpdate');
    await expect.poll(() => page.getByTestId('log-row').filter({ hasText: 'jobs/saveOrUpdate' }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
  });
});
