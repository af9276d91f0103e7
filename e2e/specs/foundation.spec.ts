/**
 * Foundation flow in real Chromium against the real server: a new user signs up in three
 * steps, signs in, sees the workbench, rearranges a panel and finds it again after a reload,
 * switches language and theme, signs out, and is sent to `/` when opening a console route
 * signed out. Screenshots of each screen in both themes go to `e2e/artifacts/`.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkControl, launchBrowser, newContext, shot } from '../fixtures/browser';
import { fillCodeFromOutbox } from '../fixtures/outbox';

const baseUrl = inject('baseUrl');
const user = { username: `e2e_${Date.now().toString(36)}`.slice(0, 20), email: `e2e${Date.now()}@example.com`, password: 'Secret123x' };

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Screenshot in the current theme, then in the other one, then back. */
async function shotBoth(name: string): Promise<void> {
  const toggle = page.getByTestId('theme-switch');
  const hasToggle = (await toggle.count()) > 0;
  if (!hasToggle) {
    await shot(page, `${name}-light`);
    await page.evaluate(() => document.body.classList.add('bp6-dark'));
    await shot(page, `${name}-dark`);
    await page.evaluate(() => document.body.classList.remove('bp6-dark'));
    return;
  }
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
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('foundation: account and workbench shell', () => {
  it('sends a signed-out visitor from a console route to / and then the SDK page', async () => {
    await page.goto('/dashboard');
    await page.waitForURL(/\/sdk$/);
    await expect.poll(() => page.getByTestId('sdk-landing').isVisible()).toBe(true);
    await shotBoth('landing');
  });

  it('signs a new user up in three validated steps', async () => {
    await page.getByTestId('landing-sign-up').click();
    await page.getByTestId('signup-username').waitFor();
    await shotBoth('signup-step1');
    // Step 1: a too-short username is refused under the field.
    await page.getByTestId('signup-username').fill('abc');
    await page.getByTestId('signup-email').fill(user.email);
    await page.getByTestId('signup-next').click();
    await page.getByTestId('signup-username-error').waitFor();
    await page.getByTestId('signup-username').fill(user.username);
    // The e-mail code: captcha solved and code read from the outbox (development mode).
    const code = await fillCodeFromOutbox(page, 'signup', user.email);
    // A wrong code is refused on this step (index/verifyEmailCode), before the other steps.
    await page.getByTestId('signup-code').fill(code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
    await page.getByTestId('signup-next').click();
    await page.getByTestId('signup-code-error').waitFor();
    expect(await page.getByTestId('signup-step-1').getAttribute('aria-current')).toBe('step');
    await page.getByTestId('signup-code').fill(code);
    await page.getByTestId('signup-next').click();
    // Step 2: personal info.
    await page.getByTestId('signup-occupation').waitFor();
    await page.getByTestId('signup-nickname').fill('Tester');
    await page.getByTestId('signup-occupation').selectOption('algorithmEngineer');
    await page.getByTestId('signup-organisation').fill('E2E Lab');
    await shotBoth('signup-step2');
    await page.getByTestId('signup-next').click();
    // Step 3: password rules, matching, agreement.
    await page.getByTestId('signup-password').waitFor();
    await page.getByTestId('signup-password').fill('weakpass');
    await page.getByTestId('signup-confirm-password').fill('weakpass');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-password-error').waitFor();
    await page.getByTestId('signup-password').fill(user.password);
    await page.getByTestId('signup-confirm-password').fill(user.password + 'x');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-confirm-password-error').waitFor();
    await page.getByTestId('signup-confirm-password').fill(user.password);
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-agreement-error').waitFor();
    await checkControl(page.getByTestId('signup-agreement'));
    await shotBoth('signup-step3');
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/sign-in/);
  });

  it('signs in with the encrypted password and shows the workbench', async () => {
    await page.getByTestId('signin-username').fill(user.username);
    await page.getByTestId('signin-password').fill('Wrong1234x');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor();
    await shotBoth('signin-error');
    await page.getByTestId('signin-password').fill(user.password);
    await page.getByTestId('signin-password').press('Enter');
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('welcome-panel').waitFor();
    expect(await page.getByTestId('welcome-greeting').textContent()).toContain('Tester');
    const cookies = await context.cookies();
    const token = cookies.find((c) => c.name === 'token');
    expect(token?.value).toBeTruthy();
    // HttpOnly, SameSite=Lax: no script of the page can read the session cookie.
    expect(token).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('token=');
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toMatch(/^[0-9a-f]{32}$/);
    // Icons are drawn from the icon files the product serves itself.
    await expect.poll(() => page.locator('.bp6-icon svg path[d]').count()).toBeGreaterThan(0);
    await shotBoth('dashboard');
  });

  it('keeps a rearranged panel after a reload', async () => {
    const groupsBefore = await page.locator('.dv-groupview').count();
    expect(groupsBefore).toBeGreaterThanOrEqual(2);
    await page
      .locator('.dv-tab', { hasText: /Recent activity|最近动态|最近活动/ })
      .dragTo(page.locator('[data-testid="panel-dashboard.welcome"]'));
    await expect.poll(() => page.locator('.dv-groupview').count()).toBe(groupsBefore - 1);
    await page.reload();
    await page.getByTestId('dock-layout').waitFor();
    await expect.poll(() => page.locator('.dv-groupview').count()).toBe(groupsBefore - 1);
    // Welcome, the tenant overview behind it, and recent activity.
    await expect.poll(() => page.locator('.dv-tab').count()).toBe(3);
    await shotBoth('dashboard-rearranged');
  });

  it('switches language and theme and remembers both', async () => {
    const lang = page.getByTestId('language-switch');
    await lang.selectOption('en-US');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toMatch(/en/);
    const theme = page.getByTestId('theme-switch');
    const before = await theme.getAttribute('data-theme');
    await theme.click();
    const after = before === 'light' ? 'dark' : 'light';
    await expect.poll(() => theme.getAttribute('data-theme')).toBe(after);
    await page.reload();
    await page.getByTestId('dock-layout').waitFor();
    await expect.poll(() => page.getByTestId('theme-switch').getAttribute('data-theme')).toBe(after);
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(after === 'dark');
    await expect.poll(() => page.getByTestId('language-switch').inputValue()).toBe('en-US');
    await shotBoth('dashboard-en');
    await page.getByTestId('language-switch').selectOption('zh-CN');
  });

  it('signs out and is refused the console afterwards', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-account.signOut').click();
    await page.waitForURL(/\/(sdk)?$/);
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toBeNull();
    await page.goto('/dashboard');
    await page.waitForURL(/\/sdk$/);
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    await shotBoth('not-found');
  });
});
