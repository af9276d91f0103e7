/**
 * Bodies and failures, against a real server: every body over a limit (chunked or with a
 * declared length; JSON calls, the code-file upload, the part upload, the decision access
 * address) answers the `{code, data, message}` envelope with HTTP 413, and failures of files
 * (a stored file gone from disk, the page gone from the public folder) answer the envelope with
 * HTTP 500 and are logged with the request id.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createLogger } from '../../src/logger';
import { createUser, issueToken } from '../../src/test/factories';
import { databases, startTestServer, type TestServer } from '../../src/test/server';

const MiB = 1024 * 1024;

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends `total` bytes of a JSON-looking body in 64 KiB chunks, chunked (no length) or with a
 * declared `Content-Length`, as a client that does not stop when the server answers early.
 * Resolves with the answer; the socket errors of writing after the server closed are expected.
 */
function sendBig(url: string, opts: { method?: string; total: number; chunked: boolean; headers?: Record<string, string> }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...opts.headers };
    if (!opts.chunked) headers['Content-Length'] = String(opts.total);
    const req = http.request(url, { method: opts.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    req.write('{"text":"');
    const pump = () => {
      while (sent < opts.total && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, opts.total - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end('"}');
    };
    pump();
  });
}

function expectEnvelope(reply: RawReply, status: number, code: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(reply.text) as { code: number; data: unknown; message: string };
  expect(body).toMatchObject({ code, data: null });
  expect(body.message).toEqual(expect.any(String));
  expect(body.message.length).toBeGreaterThan(0);
}

describe.each(databases)('bodies over a limit on %s', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    token = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a chunked JSON body over 1 MiB with the 413 envelope', async () => {
    for (const call of ['index/signIn', 'user/getUser', 'no/such/call']) {
      const reply = await sendBig(`${server.url}/api/${call}`, { total: MiB + 64 * 1024, chunked: true, headers: { Authorization: token } });
      expectEnvelope(reply, 413, ErrorCode.bodyTooLarge);
    }
  });

  it('answers a declared length over 1 MiB with the 413 envelope before reading it', async () => {
    const reply = await sendBig(`${server.url}/api/index/signIn`, { total: 4 * MiB, chunked: false, headers: { 'Accept-Language': 'en-US' } });
    expectEnvelope(reply, 413, ErrorCode.bodyTooLarge);
    expect(JSON.parse(reply.text).message).toBe('The request body is too large');
  });

  it('still reads a body just under the limit (a validation answer, not 413)', async () => {
    const reply = await sendBig(`${server.url}/api/index/signIn`, { total: MiB - 1024, chunked: true });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).code).toBe(ErrorCode.paramInvalid);
  });

  it('answers the code-file upload over its 12 MiB limit with the 413 envelope, chunked or declared', async () => {
    for (const chunked of [true, false]) {
      const reply = await sendBig(`${server.url}/api/file/uploadFileByContent`, { total: 13 * MiB, chunked, headers: { Authorization: token } });
      expectEnvelope(reply, 413, ErrorCode.bodyTooLarge);
    }
  });

  it('answers a part upload longer than its part with the 413 envelope', async () => {
    const init = await server.call('file/uploadpartinit', { token, body: { name: 'part.csv', size: 1000 } });
    expect(init.status).toBe(200);
    const uploadId = init.body.data.uploadId as string;
    const url = `${server.url}/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`;
    for (const chunked of [true, false]) {
      const reply = await sendBig(url, { method: 'PUT', total: 2 * MiB, chunked, headers: { Authorization: token, 'Content-Type': 'application/octet-stream' } });
      expectEnvelope(reply, 413, ErrorCode.bodyTooLarge);
    }
    expect((await server.call('file/uploadPartList', { token, body: { uploadId } })).body.data.parts).toEqual([]);
  });

  it('answers the decision access address over 1 MiB with the 413 envelope', async () => {
    for (const chunked of [true, false]) {
      const reply = await sendBig(`${server.url}/api/decide/${'a'.repeat(32)}`, { total: 2 * MiB, chunked, headers: { Authorization: 'Bearer x' } });
      expectEnvelope(reply, 413, ErrorCode.bodyTooLarge);
    }
  });
});

describe.each(databases)('failures around the envelope on %s', (kind) => {
  let server: TestServer;
  let publicDir: string;
  const logged: string[] = [];
  beforeAll(async () => {
    publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-public-'));
    fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><title>Decisio</title>');
    server = await startTestServer(kind, {
      env: { PUBLIC_DIR: publicDir },
      logger: createLogger('warn', (_level, line) => logged.push(line)),
    });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(publicDir, { recursive: true, force: true });
  });

  const entries = (requestId: string) => logged.map((l) => JSON.parse(l) as Record<string, any>).filter((e) => e.requestId === requestId);

  it('a stored file gone from disk: its download answers the 500 envelope (not a cut connection), logged with the request id', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const put = await server.call('file/uploadFileByContent', { token, body: { files: [{ path: 'gone/a.py', content: 'x = 1\n' }] } });
    expect(put.status).toBe(200);
    const fileId = put.body.data[0].fileId as string;
    const row = await server.app.db.knex('storage_files').where({ id: fileId }).first();
    fs.rmSync(server.app.blobs.pathOf(row.blob_key as string));

    const res = await server.fetch(`/api/file/download/${fileId}`, { headers: { Authorization: token, RequestId: `gone-${kind}` } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('requestid')).toBe(`gone-${kind}`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await res.json()).toEqual({ code: ErrorCode.internalError, data: null, message: '服务器内部错误' });
    const entry = entries(`gone-${kind}`).find((e) => e.level === 'error');
    expect(entry).toMatchObject({ msg: 'unhandled error', method: 'GET', path: `/api/file/download/${fileId}` });
  });

  it('the page gone from the public folder: a client-side route answers the 500 envelope, logged with the request id', async () => {
    fs.rmSync(path.join(publicDir, 'index.html'));
    const res = await server.fetch('/dashboard', { headers: { RequestId: `nopage-${kind}` } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ code: ErrorCode.internalError, data: null });
    expect(entries(`nopage-${kind}`).find((e) => e.level === 'error')).toMatchObject({ msg: 'unhandled error', path: '/dashboard' });
    fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><title>Decisio</title>');
  });
});
