/**
 * Sessions and headers, against a real server: the session cookie's attributes over plain http
 * and over https through a trusted proxy, forwarded headers of an untrusted peer ignored (scheme
 * and client address), the Content-Security-Policy and frame headers on the workbench page, an
 * api answer and a static file, and no inline script in the served page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, encryptedPassword, type TestUser } from '../../src/test/factories';
import { databases, startTestServer, type TestServer } from '../../src/test/server';
import { API_CSP, DUCKDB_WORKER_CSP, WORKBENCH_CSP } from '../../src/http/security-headers';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A public folder with the page as it is served: the built one when there is a build, else the source page, plus the files of `public/`. */
function publicCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-public-'));
  const built = path.join(ROOT, 'dist', 'index.html');
  fs.copyFileSync(fs.existsSync(built) ? built : path.join(ROOT, 'index.html'), path.join(dir, 'index.html'));
  for (const f of fs.readdirSync(path.join(ROOT, 'public'))) fs.copyFileSync(path.join(ROOT, 'public', f), path.join(dir, f));
  fs.mkdirSync(path.join(dir, 'assets'));
  for (const f of ['duckdb-browser-eh.worker-Ab1_x.js', 'editor.worker-Cd2.js', 'index-Ef3.js']) fs.writeFileSync(path.join(dir, 'assets', f), 'self.onmessage = () => {};');
  return dir;
}

/** One directive of a policy, as its list of sources. */
function directive(csp: string, name: string): string[] | undefined {
  const d = csp.split(';').map((s) => s.trim().split(/\s+/)).find((parts) => parts[0] === name);
  return d?.slice(1);
}

/** The `token` cookie of an answer, as lower-case attribute names and values. */
function tokenCookie(res: Response): { value: string; attrs: Map<string, string> } | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('token='));
  if (!line) return undefined;
  const [first, ...rest] = line.split(';');
  const attrs = new Map(rest.map((a) => { const [k, ...v] = a.trim().split('='); return [k!.toLowerCase(), v.join('=').toLowerCase()] as const; }));
  return { value: first!.slice('token='.length), attrs };
}

async function signIn(server: TestServer, user: TestUser, headers: Record<string, string> = {}): Promise<Response> {
  const password = await encryptedPassword(server, user.password);
  return server.fetch('/api/index/signIn', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ username: user.username, password }),
  });
}

async function auditIp(server: TestServer, requestId: string): Promise<string | null> {
  await server.app.flush();
  const row = await server.app.db.knex('logs').where('request_id', requestId).first();
  return (row?.ip as string | null | undefined) ?? null;
}

function expectFrameAndSniffHeaders(res: Response): void {
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(directive(res.headers.get('content-security-policy') ?? '', 'frame-ancestors')).toEqual(["'none'"]);
}

describe.each(databases)('session cookie and forwarded headers on %s', (kind) => {
  let direct: TestServer;
  let proxied: TestServer;
  let elsewhere: TestServer;
  beforeAll(async () => {
    // No TRUST_PROXY: the socket is the truth. TRUST_PROXY naming the test's own address: a
    // proxy in front. TRUST_PROXY naming another network: the test is not a trusted proxy.
    direct = await startTestServer(kind);
    proxied = await startTestServer(kind, { env: { TRUST_PROXY: '127.0.0.1' } });
    elsewhere = await startTestServer(kind, { env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop(), elsewhere?.stop()]);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, not Secure over plain http; sign-out clears it alike', async () => {
    const user = await createUser(direct);
    const res = await signIn(direct, user);
    const body = (await res.json()) as { code: number; data: { accessToken: string } };
    expect(body.code).toBe(0);
    const cookie = tokenCookie(res);
    expect(cookie?.value).toBe(body.data.accessToken);
    expect(cookie?.attrs.has('httponly')).toBe(true);
    expect(cookie?.attrs.get('samesite')).toBe('lax');
    expect(cookie?.attrs.get('path')).toBe('/');
    expect(cookie?.attrs.has('secure')).toBe(false);
    expect(res.headers.get('strict-transport-security')).toBeNull();

    const out = await direct.fetch('/api/user/signOut', { method: 'POST', headers: { Authorization: body.data.accessToken } });
    expect(((await out.json()) as { code: number }).code).toBe(0);
    const cleared = tokenCookie(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.attrs.has('httponly')).toBe(true);
    expect(cleared?.attrs.get('samesite')).toBe('lax');
  });

  it('ignores X-Forwarded-Proto and X-Forwarded-For of a peer that is not a trusted proxy', async () => {
    for (const server of [direct, elsewhere]) {
      const user = await createUser(server);
      const res = await signIn(server, user, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9', RequestId: `spoof-${kind}` });
      expect(res.status).toBe(200);
      expect(tokenCookie(res)?.attrs.has('secure')).toBe(false);
      expect(res.headers.get('strict-transport-security')).toBeNull();
      // The address kept for the sign-in is the socket's, not the one the client wrote.
      expect(await auditIp(server, `spoof-${kind}`)).toBe('127.0.0.1');
    }
  });

  it('behind a trusted proxy: Secure cookie and HSTS over https, the client address from X-Forwarded-For', async () => {
    const user = await createUser(proxied);
    // A client that writes its own X-Forwarded-For gets it kept on the left: the proxy appends the
    // address it saw, which is the one believed.
    const res = await signIn(proxied, user, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '6.6.6.6, 203.0.113.7', RequestId: `proxied-${kind}` });
    expect(res.status).toBe(200);
    const cookie = tokenCookie(res);
    expect(cookie?.attrs.has('secure')).toBe(true);
    expect(cookie?.attrs.has('httponly')).toBe(true);
    expect(cookie?.attrs.get('samesite')).toBe('lax');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    expect(await auditIp(proxied, `proxied-${kind}`)).toBe('203.0.113.7');

    // The same proxy forwarding plain http: no Secure, no HSTS.
    const plain = await signIn(proxied, user, { 'X-Forwarded-Proto': 'http' });
    expect(tokenCookie(plain)?.attrs.has('secure')).toBe(false);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

// Headers of the page, the api and static files do not touch the database: SQLite is enough.
describe('security headers of the workbench, the api and static files', () => {
  let server: TestServer;
  let publicDir: string;
  beforeAll(async () => {
    publicDir = publicCopy();
    server = await startTestServer('sqlite', { env: { PUBLIC_DIR: publicDir } });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(publicDir, { recursive: true, force: true });
  });

  it('the workbench policy: own scripts only (no inline, no eval), wasm, no plugins, no framing', () => {
    const csp = WORKBENCH_CSP;
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    expect(directive(csp, 'base-uri')).toEqual(["'self'"]);
    expect(directive(csp, 'form-action')).toEqual(["'self'"]);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(csp, 'connect-src')).toEqual(["'self'"]);
    for (const d of ['script-src', 'worker-src', 'connect-src', 'default-src']) {
      expect(directive(csp, d)?.some((s) => s === '*' || s === "'unsafe-inline'" || s === "'unsafe-eval'" || s.startsWith('http'))).toBe(false);
    }
  });

  it('sends the policy and the frame, referrer and sniffing headers with the page and client-side routes', async () => {
    for (const p of ['/', '/dashboard', '/project/abc']) {
      const res = await server.fetch(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(WORKBENCH_CSP);
      expectFrameAndSniffHeaders(res);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('serves a page without inline script or inline event handler', async () => {
    const html = await (await server.fetch('/')).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, content] of scripts) {
      expect(attrs).toMatch(/\bsrc\s*=/);
      expect(content!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('sends them with static files', async () => {
    for (const p of ['/boot-theme.js', '/boot-theme.css']) {
      const res = await server.fetch(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(WORKBENCH_CSP);
      expectFrameAndSniffHeaders(res);
    }
  });

  it("allows eval only in DuckDB-WASM's own worker scripts", async () => {
    expect(directive(DUCKDB_WORKER_CSP, 'script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"]);
    expect((await server.fetch('/assets/duckdb-browser-eh.worker-Ab1_x.js')).headers.get('content-security-policy')).toBe(DUCKDB_WORKER_CSP);
    for (const p of ['/assets/editor.worker-Cd2.js', '/assets/index-Ef3.js']) {
      expect((await server.fetch(p)).headers.get('content-security-policy')).toBe(WORKBENCH_CSP);
    }
  });

  it('sends a policy that lets nothing load or run with api answers, failures included', async () => {
    for (const [p, init] of [
      ['/api/index/getPublicKey', { method: 'POST' }],
      ['/api/user/getUser', { method: 'POST' }],
      ['/api/no/such/call', { method: 'POST' }],
      ['/healthz', {}],
    ] as const) {
      const res = await server.fetch(p, init);
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect(directive(API_CSP, 'default-src')).toEqual(["'none'"]);
      expectFrameAndSniffHeaders(res);
    }
  });
});
