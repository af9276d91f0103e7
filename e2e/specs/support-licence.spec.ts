/**
 * SDK licences and support in real Chromium against the real server (issue 18 part B): a user
 * applies for an offline licence with a device file (contact proven by a code read from the
 * outbox, development mode), an administrator approves it on the review screen, the user
 * downloads the licence file and the public key, and the offline verifier
 * (`docs/licence-verifier/verify.mjs`) accepts it for that device and refuses another. Then the
 * user files a support ticket, the administrator answers it, and the answer reaches the user as a
 * message (header bell, messages page, the ticket's answer). A user certified as a student
 * (campus e-mail code from the outbox) gets the free student trial licence at once and the
 * verifier accepts it. A visitor writes through the public contact form and an administrator
 * finds the entry on the contact messages screen (side menu, palette) and marks it handled.
 * Screenshots in both themes go to `e2e/artifacts/`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newUser, signUpAndIn } from '../fixtures/account';
import { checkControl, launchBrowser, newContext, reportPageErrors, shot } from '../fixtures/browser';
import { fillCodeFromOutbox } from '../fixtures/outbox';

const baseUrl = inject('baseUrl');
const VERIFIER = path.resolve(import.meta.dirname, '../../docs/licence-verifier/verify.mjs');
const adminUser = newUser('lcadm');
const user = newUser('lcuser');

let browser: Browser;
let adminContext: BrowserContext;
let userContext: BrowserContext;
let admin: Page;
let page: Page;
let dir: string;

/** Gives the user the seeded system role `admin`, as an operator does on a fresh instance. */
function promoteToAdmin(username: string): void {
  const db = new Database(path.join(inject('dataDir'), 'decisio.sqlite'), { fileMustExist: true });
  try {
    const u = db.prepare('select id from users where username = ?').get(username) as { id: string };
    const role = db.prepare("select id from roles where code = 'admin' and tenant_id is null").get() as { id: string };
    db.prepare('insert or ignore into user_roles (user_id, role_id) values (?, ?)').run(u.id, role.id);
  } finally {
    db.close();
  }
}

async function shotBoth(p: Page, name: string): Promise<void> {
  const toggle = p.getByTestId('theme-switch');
  const first = await toggle.getAttribute('data-theme');
  await shot(p, `${name}-${first}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).not.toBe(first);
  await shot(p, `${name}-${first === 'light' ? 'dark' : 'light'}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('data-theme')).toBe(first);
}

/**
 * Fetches what a download link of the page offers, with the page's session (its HttpOnly
 * cookie), checks it comes as an attachment, and saves it; resolves with the file path.
 */
async function fetchLink(p: Page, testId: string, name: string): Promise<string> {
  const href = await p.getByTestId(testId).first().getAttribute('href');
  expect(href).toMatch(/^\/api\//);
  const r = await p.request.get(href!);
  expect(r.status()).toBe(200);
  expect(r.headers()['content-disposition']).toMatch(/^attachment; filename="/);
  const file = path.join(dir, name);
  fs.writeFileSync(file, await r.body());
  return file;
}

function verify(args: string[]) {
  const r = spawnSync(process.execPath, [VERIFIER, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-licence-'));
  browser = await launchBrowser();
  adminContext = await newContext(browser, baseUrl);
  admin = await adminContext.newPage();
  reportPageErrors(admin);
  await signUpAndIn(admin, adminUser);
  promoteToAdmin(adminUser.username);
  await admin.reload();
  userContext = await newContext(browser, baseUrl);
  page = await userContext.newPage();
  reportPageErrors(page);
  await signUpAndIn(page, user);
});

afterAll(async () => {
  await adminContext?.close();
  await userContext?.close();
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('SDK licences and support', () => {
  it('applies for an offline licence, an administrator approves it, and the offline verifier accepts the file for that device only', async () => {
    const device = path.join(dir, 'device.bin');
    fs.writeFileSync(device, randomBytes(2048));
    const otherDevice = path.join(dir, 'other.bin');
    fs.writeFileSync(otherDevice, randomBytes(2048));

    // From the side menu.
    await page.getByTestId('side-menu-sdk-licence.menu').click();
    await page.waitForURL(/\/sdk-licence$/);
    await page.getByTestId('licence-apply').waitFor();
    await shotBoth(page, 'licence-page');
    await page.getByTestId('licence-apply').click();
    await page.getByTestId('apply-device').setInputFiles(device);
    await page.getByTestId('apply-target').fill(user.email);
    await fillCodeFromOutbox(page, 'apply', user.email);
    await checkControl(page.getByTestId('apply-terms'));
    await shot(page, 'licence-apply');
    await page.getByTestId('apply-submit').click();
    await expect.poll(() => page.getByTestId('licence-row').first().getAttribute('data-status')).toBe('audit');

    // The administrator approves it on the review screen.
    await admin.goto('/dashboard');
    await admin.getByTestId('side-menu-sdk-licence.admin-menu').click();
    await admin.waitForURL(/\/admin\/licences$/);
    await admin.getByTestId('admin-licence-row').first().waitFor();
    await shotBoth(admin, 'licence-review');
    await admin.getByTestId('admin-licence-row').filter({ hasText: user.username }).getByTestId('admin-licence-approve').click();
    await admin.getByTestId('review-opinion').fill('OK for the lab machine');
    await shot(admin, 'licence-review-dialog');
    await admin.getByTestId('review-confirm').click();
    await expect.poll(() => admin.getByTestId('admin-licence-row').filter({ hasText: user.username }).count()).toBe(0);

    await page.reload();
    await expect.poll(() => page.getByTestId('licence-row').first().getAttribute('data-status')).toBe('success');
    await shotBoth(page, 'licence-issued');
    const licence = await fetchLink(page, 'licence-download', 'licence.json');
    const key = await fetchLink(page, 'licence-public-key', 'licence-key.pem');

    const ok = verify(['--licence', licence, '--public-key', key, '--device', device]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ type: 'offline', edition: 'pro', username: user.username });
    const wrong = verify(['--licence', licence, '--public-key', key, '--device', otherDevice]);
    expect([wrong.status, wrong.stderr.trim()]).toEqual([1, 'invalid licence: deviceMismatch']);
  });

  it('files a support ticket; the administrator\'s answer arrives as a message', async () => {
    const description = `Training chart stays empty ${Date.now()}`;
    await page.getByTestId('side-menu-support.menu').click();
    await page.waitForURL(/\/support$/);
    await page.getByTestId('tickets-create').click();
    await page.getByTestId('ticket-type').selectOption('bug');
    await page.getByTestId('ticket-email').fill(user.email);
    await page.getByTestId('ticket-description').fill(description);
    await page.getByTestId('ticket-submit').click();
    const mine = page.getByTestId('ticket-row').filter({ hasText: description });
    await expect.poll(() => mine.getAttribute('data-status')).toBe('submitted');
    const unreadBefore = Number((await page.getByTestId('messages-unread').textContent({ timeout: 2000 }).catch(() => '0')) ?? '0');

    await admin.getByTestId('side-menu-support.menu').click();
    await admin.waitForURL(/\/support$/);
    await admin.getByTestId('tickets-all').click();
    await admin.getByTestId('ticket-row').filter({ hasText: description }).waitFor();
    await shotBoth(admin, 'support-tickets');
    await admin.getByTestId('ticket-row').filter({ hasText: description }).getByTestId('ticket-reply').click();
    await admin.getByTestId('reply-text').fill('Fixed in 1.2.1: update the SDK.');
    await shot(admin, 'support-answer');
    await admin.getByTestId('reply-send').click();
    await expect.poll(() => admin.getByTestId('ticket-row').filter({ hasText: description }).getAttribute('data-status')).toBe('replied');

    // The user's bell counts the new message; the messages page words it; opening it leads to the ticket.
    await page.reload();
    await expect.poll(async () => Number((await page.getByTestId('messages-unread').textContent()) ?? '0'), { timeout: 10_000 }).toBe(unreadBefore + 1);
    await page.getByTestId('messages-bell').click();
    await page.waitForURL(/\/user-center\/message$/);
    const message = page.getByTestId('message-row').filter({ hasText: description.slice(0, 20) });
    await expect.poll(() => message.getAttribute('data-kind')).toBe('ticketAnswered');
    expect(await message.getAttribute('data-read')).toBe('false');
    await shotBoth(page, 'messages');
    await message.getByTestId('message-open').click();
    await page.waitForURL(/\/support$/);
    await expect.poll(() => page.getByTestId('ticket-row').filter({ hasText: description }).getByTestId('ticket-answer').textContent()).toContain('Fixed in 1.2.1');
    await page.goto('/user-center/message');
    await expect.poll(() => page.getByTestId('message-row').filter({ hasText: description.slice(0, 20) }).getAttribute('data-read')).toBe('true');
  });

  it('certifies a student by a campus e-mail code; the free student trial licence is issued at once and the verifier accepts it', async () => {
    const campus = `${user.username}@pku.edu.cn`.toLowerCase();
    await page.goto('/user-center/info');
    await page.getByTestId('student-card').waitFor();
    // The page speaks the workbench's language (zh-CN unless switched): either wording counts.
    expect(await page.getByTestId('student-rules').textContent()).toMatch(/valid 30 days|有效期 30 天/);
    await page.getByTestId('student-university').fill('Peking University');
    await page.getByTestId('student-major').fill('Control engineering');
    await page.getByTestId('student-campusEmail').fill(campus);
    await fillCodeFromOutbox(page, 'student', campus);
    await page.getByTestId('student-submit').click();
    await expect.poll(() => page.getByTestId('student-status').textContent()).toMatch(/Certified student until|已认证学生/);
    await shotBoth(page, 'student-certified');

    const device = path.join(dir, 'laptop.bin');
    fs.writeFileSync(device, randomBytes(1024));
    // The workbench reads the new certification with the user at the next load.
    await page.goto('/sdk-licence');
    await page.getByTestId('licence-apply').click();
    await expect.poll(() => page.getByTestId('apply-student').isDisabled()).toBe(false);
    await checkControl(page.getByTestId('apply-student'));
    expect(await page.getByTestId('apply-student-note').textContent()).toMatch(/issued at once without review|提交即签发/);
    await page.getByTestId('apply-device').setInputFiles(device);
    const contact = `trial_${user.username}@example.com`.toLowerCase();
    await page.getByTestId('apply-target').fill(contact);
    await fillCodeFromOutbox(page, 'apply', contact);
    await checkControl(page.getByTestId('apply-terms'));
    await shot(page, 'licence-apply-student');
    await page.getByTestId('apply-submit').click();
    // No review: the newest row is the student licence, already valid.
    const newest = page.getByTestId('licence-row').first();
    await expect.poll(() => newest.textContent()).toMatch(/Student trial|学生试用/);
    expect(await newest.getAttribute('data-status')).toBe('success');
    const licence = await fetchLink(page, 'licence-download', 'student-licence.json');
    const key = await fetchLink(page, 'licence-public-key', 'student-key.pem');
    const ok = verify(['--licence', licence, '--public-key', key, '--device', device]);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(ok.stdout)).toMatchObject({ type: 'student', edition: 'trial', username: user.username });
  });

  it('a visitor writes through the contact form; an administrator finds it under contact messages and marks it handled', async () => {
    const visitorContext = await newContext(browser, baseUrl);
    try {
      const visitor = await visitorContext.newPage();
      reportPageErrors(visitor);
      const text = `Pilot for 3 pump rooms ${Date.now()}`;
      await visitor.goto('/contact-us');
      await visitor.getByTestId('contact-name').fill('Ada Visitor');
      await visitor.getByTestId('contact-email').fill('ada.visitor@example.com');
      await visitor.getByTestId('contact-content').fill(text);
      await visitor.getByTestId('contact-send').click();
      await visitor.getByTestId('contact-sent').waitFor();

      await admin.goto('/dashboard');
      await admin.getByTestId('side-menu-support.contacts-menu').click();
      await admin.waitForURL(/\/admin\/contacts$/);
      const row = admin.getByTestId('contact-row').filter({ hasText: text });
      await row.waitFor();
      expect(await row.textContent()).toContain('ada.visitor@example.com');
      await shotBoth(admin, 'contact-messages');
      await row.getByTestId('contact-handle').click();
      await admin.getByTestId('contact-note').fill('Called back, demo booked');
      await admin.getByTestId('contact-handle-confirm').click();
      // Open entries are shown by default: the handled one leaves the list, and shows under "Handled".
      await expect.poll(() => admin.getByTestId('contact-row').filter({ hasText: text }).count()).toBe(0);
      await admin.getByTestId('contacts-filter').selectOption('handled');
      const handled = admin.getByTestId('contact-row').filter({ hasText: text });
      await expect.poll(() => handled.getAttribute('data-handled')).toBe('yes');
      expect(await handled.getByTestId('contact-state').textContent()).toContain('Called back, demo booked');

      // The palette reaches the same screen.
      await admin.goto('/dashboard');
      await admin.getByTestId('side-menu').waitFor();
      // The palette offers a page once the user's menus are known (the side menu shows its entry).
      await admin.getByTestId('side-menu-support.contacts-menu').waitFor();
      await admin.keyboard.press('F1');
      await admin.getByTestId('command-palette-input').fill('contact messages');
      await admin.getByTestId('command-support.contacts').click();
      await admin.waitForURL(/\/admin\/contacts$/);
    } finally {
      await visitorContext.close();
    }
  });
});
