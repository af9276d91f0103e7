import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { startTestServer, type TestServer } from '../test/server';

/** Raw GET (fetch would decompress and hide the encoding). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Serving the built workbench does not touch the database: SQLite is enough.
describe('serving the built workbench', () => {
  let server: TestServer;
  let publicDir: string;
  const script = `console.log(${JSON.stringify('decisio '.repeat(2000))});`;

  beforeAll(async () => {
    publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-public-'));
    fs.mkdirSync(path.join(publicDir, 'assets'));
    fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><title>Decisio</title><div id="root"></div>');
    fs.writeFileSync(path.join(publicDir, 'assets', 'app-3f9a1c.js'), script);
    fs.writeFileSync(path.join(publicDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer('sqlite', { env: { PUBLIC_DIR: publicDir } });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(publicDir, { recursive: true, force: true });
  });

  it('serves hashed assets as immutable, compressed with brotli or gzip', async () => {
    const br = await rawGet(`${server.url}/assets/app-3f9a1c.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('text/javascript');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gz = await rawGet(`${server.url}/assets/app-3f9a1c.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
  });

  it('serves index.html without caching, and for any client-side route', async () => {
    for (const p of ['/', '/dashboard', '/project/workbench?projectId=1']) {
      const res = await rawGet(server.url + p);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body.toString()).toContain('<title>Decisio</title>');
    }
    const icon = await rawGet(`${server.url}/favicon.svg`);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends the cross-origin isolation headers on every response', async () => {
    for (const p of ['/', '/assets/app-3f9a1c.js', '/api/user/checkToken', '/healthz']) {
      const res = await rawGet(server.url + p);
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-embedder-policy']).toBe('require-corp');
    }
  });

  it('keeps /api/ out of the fallback and refuses paths outside the folder', async () => {
    const api = await rawGet(`${server.url}/api/no/such/call`);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body.toString()).code).toBe(ErrorCode.notFound);
    const missingAsset = await rawGet(`${server.url}/assets/missing-123.js`);
    expect(missingAsset.status).toBe(404);
    const escape = await rawGet(`${server.url}/..%2f..%2fetc%2fpasswd`);
    expect(escape.body.toString()).not.toContain('root:');
  });
});
