/**
 * SSH debug terminal in real Chromium (issue 21 item 5): a signed-in user opens `/ssh` from the
 * side menu, is refused a private host (host guard), then opens a session to an SSH server the
 * test starts on 127.0.0.1 (ssh2's server, password account, a line shell), runs a command in
 * xterm and sees its output, and disconnects. The first connection shows the server's host key
 * fingerprint (computed here from the key) to be trusted; the second finds it stored. The session part needs the e2e server to allow
 * 127.0.0.1 (`CONNECTION_ALLOW` is the test databases' hosts: `TEST_MYSQL_URL` on 127.0.0.1).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Server, utils, type Connection } from 'ssh2';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, reportPageErrors, shot } from '../fixtures/browser';
import { Database } from '../../server/src/db/database';
import { createUser, type TestUser } from '../../server/src/test/factories';
import type { TestServer } from '../../server/src/test/server';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const loopbackAllowed = (() => {
  const u = process.env.TEST_MYSQL_URL ?? process.env.TEST_POSTGRES_URL;
  return !!u && new URL(u).hostname === '127.0.0.1';
})();
let browser: Browser;
let page: Page;
let ssh: Server;
let sshPort = 0;
let fingerprint = '';

function startSsh(): Server {
  const pair = utils.generateKeyPairSync('ed25519');
  const parsed = utils.parseKey(pair.public);
  if (parsed instanceof Error) throw parsed;
  const blob = (Array.isArray(parsed) ? parsed[0]! : parsed).getPublicSSH();
  fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return new Server({ hostKeys: [pair.private] }, (client: Connection) => {
    client.on('authentication', (ctx) => (ctx.method === 'password' && ctx.username === 'dev' && ctx.password === 'right-pass' ? ctx.accept() : ctx.reject(['password'])));
    client.on('ready', () =>
      client.on('session', (accept) => {
        const s = accept();
        s.on('pty', (ok) => ok?.());
        s.on('window-change', (ok) => ok?.());
        s.on('shell', (ok) => {
          const stream = ok();
          stream.write('welcome to the test box\r\n$ ');
          let line = '';
          stream.on('data', (d: Buffer) => {
            for (const ch of d.toString('utf8')) {
              if (ch === '\r') {
                stream.write(`\r\nout:${line.replace(/^echo /, '')}\r\n$ `);
                line = '';
              } else {
                line += ch;
                stream.write(ch);
              }
            }
          });
        });
      }),
    );
    client.on('error', () => undefined);
  });
}

describe('SSH debug terminal', () => {
  beforeAll(async () => {
    ssh = startSsh();
    ssh.listen(0, '127.0.0.1');
    await once(ssh, 'listening');
    sshPort = (ssh.address() as AddressInfo).port;
    browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
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
  });
  afterAll(async () => {
    await browser?.close();
    ssh?.close();
  });

  it('opens from the side menu and refuses a private host with the host guard message', async () => {
    await page.getByTestId('side-menu-ssh-terminal.menu').click();
    await page.waitForURL(/\/ssh$/);
    await page.getByTestId('ssh-host').fill('10.20.30.40');
    await page.getByTestId('ssh-username').fill('dev');
    await page.getByTestId('ssh-password').fill('right-pass');
    await page.getByTestId('ssh-connect').click();
    await expect.poll(() => page.getByTestId('ssh-error').getAttribute('data-code')).toBe('10024');
  });

  it.skipIf(!loopbackAllowed)('runs a command on the test SSH server and shows its output', async () => {
    await page.getByTestId('ssh-host').fill('127.0.0.1');
    await page.getByTestId('ssh-port').fill(String(sshPort));
    await page.getByTestId('ssh-password').fill('wrong');
    await page.getByTestId('ssh-connect').click();
    // First connection: the host key's fingerprint, to trust before any password is sent.
    const notice = page.getByTestId('ssh-host-key-unknown');
    await expect.poll(() => notice.getAttribute('data-fingerprint')).toBe(fingerprint);
    expect(await notice.textContent()).toContain(fingerprint);
    await shot(page, 'ssh-host-key');
    await page.getByTestId('ssh-trust').click();
    await expect.poll(() => page.getByTestId('ssh-error').getAttribute('data-code')).toBe('10020');
    await page.getByTestId('ssh-password').fill('right-pass');
    await page.getByTestId('ssh-connect').click();
    const rows = page.getByTestId('ssh-xterm').locator('.xterm-rows');
    await expect.poll(() => rows.textContent(), { timeout: 20_000 }).toContain('welcome to the test box');
    // The key trusted a moment ago was found stored.
    expect(await page.getByTestId('ssh-host-key').getAttribute('data-trust')).toBe('stored');
    expect(await page.getByTestId('ssh-host-key').getAttribute('data-fingerprint')).toBe(fingerprint);
    await page.getByTestId('ssh-xterm').click();
    await page.keyboard.type('echo decisio-e2e');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.textContent(), { timeout: 20_000 }).toContain('out:decisio-e2e');
    await shot(page, 'ssh-terminal');
    await page.getByTestId('ssh-disconnect').click();
    await expect.poll(() => page.getByTestId('ssh-terminal').getAttribute('data-ended')).toBe('4000');
  });
});
