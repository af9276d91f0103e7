/**
 * Accounts in real Chromium against the real server (issue 18): a user who forgot the password
 * resets it with the code read from the outbox (the e2e server has no mail transport:
 * development mode), signs in with the new password; then changes the password in the user
 * centre, reached from the user menu, and signs in with that one while the old one is refused.
 * Screenshots in both themes go to `e2e/artifacts/account-*`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newUser, signUpAndIn } from '../fixtures/account';
import { launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';
import { fillCodeFromOutbox } from '../fixtures/outbox';

const baseUrl = inject('baseUrl');
const user = newUser('e2ea');
const reset = 'Reset456Pass';
const changed = 'Changed789Pass';

let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Screenshot in the current theme, then in the other one, then back. */
async function shotBoth(name: string): Promise<void> {
  const toggle = page.getByTestId('theme-switch');
  const first = (await toggle.getAttribute('data-theme')) ?? 'light';
  await shot(page, `account-${name}-${first}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).not.toBe(first);
  await shot(page, `account-${name}-${first === 'light' ? 'dark' : 'light'}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).toBe(first);
}

async function signOut(): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-account.signOut').click();
  await page.waitForURL(/\/(sdk|sign-in)?$/);
}

async function signInWith(password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByTestId('signin-username').fill(user.username);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
}

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseUrl);
  page = await context.newPage();
  reportPageErrors(page);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shot(page, `account-failed-${ctx.task.name.slice(0, 40)}`).catch(() => undefined);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('account: forgotten and changed passwords', () => {
  it('resets a forgotten password with the code from the outbox', async () => {
    await signUpAndIn(page, user, 'Recover');
    await signOut();
    await page.goto('/sign-in');
    await page.getByTestId('signin-forgot').click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByTestId('reset-email').fill(user.email);
    await shotBoth('forgot');
    const code = await fillCodeFromOutbox(page, 'reset', user.email);
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    // A wrong code is refused under its field; the right one then resets.
    await page.getByTestId('reset-code').fill(code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
    await page.getByTestId('reset-password').fill(reset);
    await page.getByTestId('reset-confirmPassword').fill(reset);
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-code-error').waitFor();
    await page.getByTestId('reset-code').fill(code);
    await page.getByTestId('reset-submit').click();
    await page.waitForURL(/\/sign-in$/);

    await signInWith(user.password);
    await page.getByTestId('signin-error').waitFor();
    await signInWith(reset);
    await page.waitForURL(/\/dashboard/);
  });

  it('changes the password in the user centre, reached from the user menu', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-user-centre.security').click();
    await page.waitForURL(/\/user-center\/security$/);
    await page.getByTestId('signin-records').waitFor();
    expect(await page.getByTestId('signin-record').count()).toBeGreaterThanOrEqual(2);
    await page.getByTestId('password-oriPassword').fill('Wrong000Pass');
    await page.getByTestId('password-password').fill(changed);
    await page.getByTestId('password-confirmPassword').fill(changed);
    await page.getByTestId('password-submit').click();
    await page.getByTestId('password-oriPassword-error').waitFor();
    await page.getByTestId('password-oriPassword').fill(reset);
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-oriPassword').inputValue()).toBe('');
    await shotBoth('security');

    await signOut();
    await signInWith(reset);
    await page.getByTestId('signin-error').waitFor();
    await signInWith(changed);
    await page.waitForURL(/\/dashboard/);
    // The user centre opens on the profile.
    await page.goto('/user-center');
    await page.waitForURL(/\/user-center\/info$/);
    expect(await page.getByTestId('profile-username').inputValue()).toBe(user.username);
    await shotBoth('profile');
  });
});
