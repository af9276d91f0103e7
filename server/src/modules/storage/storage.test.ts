import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, UPLOAD_PART } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

const MB = 1024 * 1024;

/** `n` bytes of csv text: a header and rows of random hexadecimal values (the last row may be cut). */
function csvBytes(n: number): Buffer {
  const lines = ['id,value'];
  let size = 9;
  for (let i = 0; size < n; i++) {
    const line = `${String(i).padStart(8, '0')},${randomBytes(24).toString('hex')}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`).subarray(0, n);
}

describe.each(databases)('storage on %s', (kind) => {
  let server: TestServer;
  let alice: TestUser;
  let aliceToken: string;
  let bobToken: string;
  let strangerToken: string;
  let admin: TestUser;
  let adminToken: string;

  beforeAll(async () => {
    // 4 MB per user so that quota failures are cheap to provoke.
    server = await startTestServer(kind, { env: { STORAGE_USER_QUOTA_MB: '4', STORAGE_TENANT_QUOTA_MB: '1000' } });
    alice = await createUser(server);
    aliceToken = await issueToken(server, alice);
    bobToken = await issueToken(server, await createUser(server));
    admin = await createUser(server, { roles: ['admin'] });
    adminToken = await issueToken(server, admin);
    const other = await createTenant(server);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: other, roles: ['admin'] }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const putPart = (token: string, uploadId: string, partNumber: number, bytes: Uint8Array, headers: Record<string, string> = {}) =>
    server
      .fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=${partNumber}`, {
        method: 'PUT',
        headers: { Authorization: token, 'Content-Type': 'application/octet-stream', ...headers },
        body: bytes as unknown as BodyInit,
      })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as { code: number; data: any } }));

  const free = async (token: string) => (await server.call('file/getFreeSpace', { token })).body.data;

  it('uploads a file in parts, resumes after listing the parts, and downloads it with ranges', async () => {
    // A dataset upload is checked as a csv when it completes: rows of random values.
    const data = csvBytes(UPLOAD_PART.min * 2 + 1000);
    const before = await free(aliceToken);
    expect(before).toMatchObject({ totalBytes: 4 * MB, usedBytes: 0, freeBytes: 4 * MB });

    const init = await server.call('file/uploadpartinit', {
      token: aliceToken,
      body: { name: 'sales (2024).csv', size: data.length, partSize: UPLOAD_PART.min },
    });
    expect(init.status).toBe(200);
    expect(init.body.data).toMatchObject({ partCount: 3, partSize: UPLOAD_PART.min, parts: [], state: 'uploading', purpose: 'dataset' });
    const uploadId = init.body.data.uploadId as string;
    // The whole size is reserved at once.
    expect((await free(aliceToken)).usedBytes).toBe(data.length);

    const p1 = await putPart(aliceToken, uploadId, 1, data.subarray(0, UPLOAD_PART.min));
    expect(p1.status).toBe(200);
    expect(p1.body.data).toEqual({ partNumber: 1, size: UPLOAD_PART.min });
    const p3 = await putPart(aliceToken, uploadId, 3, data.subarray(2 * UPLOAD_PART.min), {
      'Content-Range': `bytes ${2 * UPLOAD_PART.min}-${data.length - 1}/${data.length}`,
    });
    expect(p3.status).toBe(200);

    // "Reload": the client finds its open upload and the parts the server holds.
    const open = await server.call('file/uploadingList', { token: aliceToken });
    expect(open.body.data.map((u: { uploadId: string }) => u.uploadId)).toContain(uploadId);
    const listed = await server.call('file/uploadPartList', { token: aliceToken, body: { uploadId } });
    expect(listed.body.data).toMatchObject({ parts: [1, 3], receivedBytes: UPLOAD_PART.min + 1000 });

    const early = await server.call('file/uploadPartComplete', { token: aliceToken, body: { uploadId } });
    expect(early.status).toBe(400);
    expect(early.body.code).toBe(ErrorCode.paramInvalid);
    expect(await server.app.db.knex('storage_files').where({ upload_id: uploadId })).toHaveLength(0);

    // A part of the wrong length is refused and not recorded.
    const short = await putPart(aliceToken, uploadId, 2, data.subarray(UPLOAD_PART.min, UPLOAD_PART.min + 10));
    expect(short.status).toBe(400);
    expect((await server.call('file/uploadPartList', { token: aliceToken, body: { uploadId } })).body.data.parts).toEqual([1, 3]);
    // Another user cannot write into it.
    const foreign = await putPart(bobToken, uploadId, 2, data.subarray(UPLOAD_PART.min, 2 * UPLOAD_PART.min));
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(ErrorCode.fileNotFound);

    expect((await putPart(aliceToken, uploadId, 2, data.subarray(UPLOAD_PART.min, 2 * UPLOAD_PART.min))).status).toBe(200);
    const done = await server.call('file/uploadPartComplete', { token: aliceToken, body: { uploadId } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ name: 'sales (2024).csv', size: data.length, kind: 'upload' });
    const fileId = done.body.data.fileId as string;
    // Parts are gone; the reservation became the file's charge.
    expect(fs.existsSync(path.join(server.config.dataDir, 'blobs', 'tmp', 'uploads', uploadId))).toBe(false);
    expect((await free(aliceToken)).usedBytes).toBe(data.length);

    const list = await server.call('file/fileItemList', { token: aliceToken, body: { keyword: 'SALES' } });
    expect(list.body.data).toMatchObject({ total: 1, page: 1 });
    expect(list.body.data.rows[0].fileId).toBe(fileId);
    expect((await server.call('file/fileItemList', { token: bobToken, body: {} })).body.data.total).toBe(0);

    const url = await server.call('file/getGeneralFileDownloadUrl', { token: aliceToken, body: { fileId } });
    expect(url.body.data).toMatchObject({ url: `/api/file/download/${fileId}`, size: data.length });
    const whole = await server.fetch(url.body.data.url, { headers: { Authorization: aliceToken } });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
    const ranged = await server.fetch(url.body.data.url, { headers: { Authorization: aliceToken, Range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
    const cookie = await server.fetch(url.body.data.url, { headers: { Cookie: `token=${aliceToken}`, Range: 'bytes=-5' } });
    expect(Buffer.from(await cookie.arrayBuffer()).equals(data.subarray(data.length - 5))).toBe(true);
    expect((await server.fetch(url.body.data.url, { headers: { Authorization: aliceToken, Range: `bytes=${data.length}-` } })).status).toBe(416);
    expect((await server.fetch(url.body.data.url)).status).toBe(401);
    expect((await server.fetch(url.body.data.url, { headers: { Authorization: bobToken } })).status).toBe(404);
    expect((await server.call('file/getGeneralFileDownloadUrl', { token: strangerToken, body: { fileId } })).status).toBe(404);

    // Deleting frees the space and leaves a deletion record.
    expect((await server.call('file/deleteFile', { token: bobToken, body: { fileId } })).status).toBe(404);
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId } })).status).toBe(200);
    expect((await free(aliceToken)).usedBytes).toBe(0);
    expect((await server.call('file/fileItemList', { token: aliceToken, body: {} })).body.data.total).toBe(0);
    const record = await server.call('file/getDeleteFileRecord', { token: aliceToken, body: {} });
    expect(record.body.data.rows[0]).toMatchObject({ fileId, deletedAt: expect.any(String) });
    expect((await server.fetch(url.body.data.url, { headers: { Authorization: aliceToken } })).status).toBe(404);
  });

  it('takes gzipped parts (Content-Encoding: gzip) and stores the inflated bytes; refuses bad or oversized gzip', async () => {
    const line = (i: number) => `${i},${i % 7},row ${i} of a compressible csv\n`;
    let text = 'id,k,comment\n';
    for (let i = 0; text.length < UPLOAD_PART.min * 2 + 500; i++) text += line(i);
    const data = Buffer.from(text.slice(0, UPLOAD_PART.min * 2 + 500));
    const init = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'zipped.csv', size: data.length, partSize: UPLOAD_PART.min } });
    const uploadId = init.body.data.uploadId as string;
    const part = (n: number) => data.subarray((n - 1) * UPLOAD_PART.min, Math.min(data.length, n * UPLOAD_PART.min));
    const gz = { 'Content-Encoding': 'gzip' };

    const p1 = gzipSync(part(1));
    expect(p1.length).toBeLessThan(part(1).length / 3);
    expect((await putPart(aliceToken, uploadId, 1, p1, gz)).body.data).toEqual({ partNumber: 1, size: UPLOAD_PART.min });
    // not gzip, a gzip of the wrong bytes count, an unknown encoding: refused, not recorded
    const garbage = await putPart(aliceToken, uploadId, 2, randomBytes(1000), gz);
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe(ErrorCode.paramInvalid);
    expect((await putPart(aliceToken, uploadId, 2, gzipSync(part(2).subarray(0, 100)), gz)).status).toBe(400);
    // inflating past the part's length: over a limit, 413
    expect((await putPart(aliceToken, uploadId, 2, gzipSync(Buffer.alloc(UPLOAD_PART.min * 4)), gz)).status).toBe(413);
    expect((await putPart(aliceToken, uploadId, 2, part(2), { 'Content-Encoding': 'br' })).status).toBe(400);
    expect((await server.call('file/uploadPartList', { token: aliceToken, body: { uploadId } })).body.data.parts).toEqual([1]);

    expect((await putPart(aliceToken, uploadId, 2, gzipSync(part(2)), gz)).status).toBe(200);
    expect((await putPart(aliceToken, uploadId, 3, part(3))).status).toBe(200);
    const done = await server.call('file/uploadPartComplete', { token: aliceToken, body: { uploadId } });
    expect(done.body.data).toMatchObject({ name: 'zipped.csv', size: data.length });
    const whole = await server.fetch(`/api/file/download/${done.body.data.fileId}`, { headers: { Authorization: aliceToken } });
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId: done.body.data.fileId } })).status).toBe(200);
  });

  it('aborting an upload deletes its parts and frees its reservation', async () => {
    const init = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'a.csv', size: 3 * MB } });
    const uploadId = init.body.data.uploadId as string;
    expect((await free(aliceToken)).usedBytes).toBe(3 * MB);
    expect((await putPart(aliceToken, uploadId, 1, randomBytes(3 * MB))).status).toBe(200);
    expect((await server.call('file/mpuAbortOne', { token: bobToken, body: { uploadId } })).status).toBe(404);
    const abort = await server.call('file/mpuAbortOne', { token: aliceToken, body: { uploadId } });
    expect(abort.status).toBe(200);
    expect((await free(aliceToken)).usedBytes).toBe(0);
    expect(fs.existsSync(path.join(server.config.dataDir, 'blobs', 'tmp', 'uploads', uploadId))).toBe(false);
    const late = await putPart(aliceToken, uploadId, 1, randomBytes(10));
    expect(late.status).toBe(400);
    expect((await server.call('file/uploadPartComplete', { token: aliceToken, body: { uploadId } })).status).toBe(400);
    expect(await server.app.db.knex('storage_files').where({ upload_id: uploadId })).toHaveLength(0);
  });

  it('refuses an upload over the free space with storageInsufficient, and expands the quota up to 500 GB', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const full = await server.call('file/uploadpartinit', { token, body: { name: 'big.csv', size: 4 * MB + 1 } });
    expect(full.status).toBe(400);
    expect(full.body.code).toBe(ErrorCode.storageInsufficient);
    expect((await free(token)).usedBytes).toBe(0);

    const zero = await server.call('file/addStorageSpace', { token, body: { size: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toHaveProperty('size');
    const added = await server.call('file/addStorageSpace', { token, body: { size: 1 } });
    expect(added.status).toBe(200);
    expect(added.body.data.totalBytes).toBe(4 * MB + 1024 ** 3);
    const over = await server.call('file/addStorageSpace', { token, body: { size: 500 } });
    expect(over.body.code).toBe(ErrorCode.storageOutOfRange);
    expect((await server.call('file/uploadpartinit', { token, body: { name: 'big.csv', size: 4 * MB + 1 } })).status).toBe(200);

    // Only an administrator may expand someone else's space, within the tenant.
    const denied = await server.call('file/addStorageSpace', { token: bobToken, body: { size: 1, userId: user.id } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    expect((await server.call('file/addStorageSpace', { token: strangerToken, body: { size: 1, userId: user.id } })).body.code).toBe(
      ErrorCode.userNotFound,
    );
    expect((await server.call('file/addStorageSpace', { token: adminToken, body: { size: 1, userId: user.id } })).status).toBe(200);
  });

  it('charges the tenant too: a full tenant refuses the upload and leaves the user uncharged', async () => {
    const tenant = await createTenant(server);
    const user = await createUser(server, { tenantId: tenant });
    const token = await issueToken(server, user);
    expect((await free(token)).tenant.totalBytes).toBe(1000 * MB);
    await server.app.db.knex('storage_quotas').where({ scope: 'tenant', owner_id: tenant }).update({ total_bytes: MB });
    const r = await server.call('file/uploadpartinit', { token, body: { name: 'a.csv', size: 2 * MB } });
    expect(r.body.code).toBe(ErrorCode.poolQuotaExceeded);
    const after = await free(token);
    expect(after).toMatchObject({ usedBytes: 0, freeBytes: MB, tenant: { usedBytes: 0 } });
    // Other users' uploads and upload lists are out of reach.
    const mine = await server.call('file/uploadpartinit', { token, body: { name: 'a.csv', size: 10 } });
    expect((await server.call('file/uploadPartList', { token: aliceToken, body: { uploadId: mine.body.data.uploadId } })).status).toBe(404);
    expect((await server.call('file/uploadPartComplete', { token: strangerToken, body: { uploadId: mine.body.data.uploadId } })).status).toBe(404);
    expect((await server.call('file/uploadingList', { token: aliceToken })).body.data.map((u: { uploadId: string }) => u.uploadId)).not.toContain(
      mine.body.data.uploadId,
    );
  });

  it('validates upload names and sizes, and needs a token', async () => {
    const bad = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'a/b.txt', size: 0, purpose: 'file' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['name', 'size']);
    // An empty dataset file is refused as empty (upload-checks.test.ts), a bad name still as a bad name.
    const badDataset = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'a;b.txt', size: 0 } });
    expect(Object.keys(badDataset.body.errors ?? {})).toEqual(['name']);
    const tooBig = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'a.csv', size: 2 * 1024 ** 3 + 1 } });
    expect(tooBig.body.errors).toHaveProperty('size');
    const general = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'notes.txt', size: 10, purpose: 'file' } });
    expect(general.status).toBe(200);
    expect((await server.call('file/uploadpartinit', { body: { name: 'a.csv', size: 1 } })).status).toBe(401);
    expect((await server.call('file/getFreeSpace')).status).toBe(401);
    expect((await putPart('', general.body.data.uploadId, 1, randomBytes(10))).status).toBe(401);
    await server.call('file/mpuAbortOne', { token: aliceToken, body: { uploadId: general.body.data.uploadId } });
  });

  it('stores code files by content: overwrite by path, 10 MB per upload, no empty folders', async () => {
    const put = await server.call('file/uploadFileByContent', {
      token: aliceToken,
      body: { files: [{ path: 'p1/reward/reward.py', content: 'def reward():\n    return 1\n' }, { path: 'p1/reward/util.py', content: '' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toHaveLength(2);
    const again = await server.call('file/uploadFileByContent', {
      token: aliceToken,
      body: { files: [{ path: 'p1/reward/reward.py', content: 'def reward():\n    return 2\n' }] },
    });
    expect(again.body.data[0].fileId).toBe(put.body.data[0].fileId);
    const got = await server.call('file/getContentByFilePath', { token: aliceToken, body: { path: 'p1/reward/reward.py' } });
    expect(got.body.data).toMatchObject({ content: 'def reward():\n    return 2\n', size: 27 });
    expect((await server.call('file/getContentByFilePath', { token: bobToken, body: { path: 'p1/reward/reward.py' } })).body.code).toBe(
      ErrorCode.fileNotFound,
    );
    expect((await server.call('file/fileItemList', { token: aliceToken, body: { kind: 'code' } })).body.data.total).toBe(2);

    const folder = await server.call('file/uploadFileByContent', { token: aliceToken, body: { files: [{ path: 'p1/empty/', content: '' }] } });
    expect(folder.status).toBe(400);
    expect(folder.body.errors).toHaveProperty(['files.0.path']);
    const none = await server.call('file/uploadFileByContent', { token: aliceToken, body: { files: [] } });
    expect(none.status).toBe(400);
    const escape = await server.call('file/uploadFileByContent', { token: aliceToken, body: { files: [{ path: '../x.py', content: 'x' }] } });
    expect(escape.status).toBe(400);

    // 10 MB in all: just over is refused (the JSON body itself is over the usual 1 MiB limit).
    const chunk = 'x'.repeat(2 * MB);
    const tooMuch = await server.call('file/uploadFileByContent', {
      token: aliceToken,
      body: { files: [0, 1, 2, 3, 4].map((i) => ({ path: `big/f${i}.py`, content: chunk })).concat([{ path: 'big/g.py', content: 'yy' }]) },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.code).toBe(ErrorCode.paramInvalid);
    const user = await createUser(server);
    const token = await issueToken(server, user);
    await server.call('file/addStorageSpace', { token, body: { size: 1 } });
    const fits = await server.call('file/uploadFileByContent', {
      token,
      body: { files: [0, 1, 2, 3, 4].map((i) => ({ path: `big/f${i}.py`, content: chunk })) },
    });
    expect(fits.status).toBe(200);
    expect((await free(token)).usedBytes).toBe(10 * MB);
    expect((await server.call('file/uploadFileByContent', { body: { files: [{ path: 'a.py', content: '' }] } })).status).toBe(401);
  });

  it('charges code files to the quota and refuses them when it is full', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const r = await server.call('file/uploadFileByContent', {
      token,
      body: { files: [0, 1, 2].map((i) => ({ path: `q/f${i}.py`, content: 'z'.repeat(2 * MB) })) },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(ErrorCode.storageInsufficient);
    expect((await free(token)).usedBytes).toBe(0);
    expect((await server.call('file/fileItemList', { token, body: {} })).body.data.total).toBe(0);
  });
});

describe.each(databases)('stale uploads on %s', (kind) => {
  it('aborts uploads untouched for a week when the user starts another, freeing their space', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const server = await startTestServer(kind, { clock: { now: () => now } });
    try {
      const user = await createUser(server);
      const token = await issueToken(server, user, new Date(Date.now() + 30 * 24 * 3600_000));
      const old = await server.call('file/uploadpartinit', { token, body: { name: 'old.csv', size: 1000 } });
      expect((await server.call('file/getFreeSpace', { token })).body.data.usedBytes).toBe(1000);
      now = new Date('2026-11-09T00:00:00Z');
      await server.call('file/uploadpartinit', { token, body: { name: 'new.csv', size: 10 } });
      const state = await server.call('file/uploadPartList', { token, body: { uploadId: old.body.data.uploadId } });
      expect(state.body.data.state).toBe('aborted');
      expect((await server.call('file/getFreeSpace', { token })).body.data.usedBytes).toBe(10);
    } finally {
      await server.stop();
    }
  });
});
