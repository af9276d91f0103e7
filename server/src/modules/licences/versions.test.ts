import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('SDK versions on %s', (kind) => {
  let server: TestServer;
  let userToken: string;
  let adminToken: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    userToken = await issueToken(server, await createUser(server));
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
  });
  afterAll(async () => {
    await server?.stop();
  });
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });
  const upload = (token: string | undefined, id: string, name: string, bytes: Uint8Array) =>
    server.fetch(`/api/sdkVersion/uploadSdkPackage?id=${id}&name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', ...(token ? { Authorization: token } : {}) },
      body: Buffer.from(bytes),
    });

  it('an administrator adds versions with notes and packages in the blob store; users list and download them', async () => {
    const v = await call('sdkVersion/createSdkVersion', adminToken, { version: '1.2.0', edition: 'pro', notes: 'Faster rollouts' });
    expect(v.body.data).toMatchObject({ version: '1.2.0', edition: 'pro', notes: 'Faster rollouts', fileName: null, size: null });
    const t = await call('sdkVersion/createSdkVersion', adminToken, { version: '0.9.3', edition: 'trial' });
    await call('sdkVersion/createSdkVersion', adminToken, { version: '1.10.0', edition: 'pro', notes: '' });
    expect((await call('sdkVersion/createSdkVersion', adminToken, { version: '1.2.0', edition: 'pro' })).body.code).toBe(ErrorCode.sdkVersionExists);

    const bytes = randomBytes(200_000);
    const up = await upload(adminToken, v.body.data.id, 'decisio-sdk-1.2.0.zip', bytes);
    const upBody = (await up.json()) as { code: number; data: Record<string, unknown> };
    expect(upBody.code).toBe(0);
    expect(upBody.data).toMatchObject({ fileName: 'decisio-sdk-1.2.0.zip', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

    const listed = await call('sdkVersion/getSdkVersionList', userToken, {});
    expect(listed.body.data.rows.map((r: { version: string }) => r.version)).toEqual(['1.10.0', '1.2.0', '0.9.3']);
    const downloadable = await call('sdkVersion/getSdkVersionList', userToken, { withPackage: true });
    expect(downloadable.body.data.rows.map((r: { id: string }) => r.id)).toEqual([v.body.data.id]);

    const got = await server.fetch(`/api/sdkVersion/downloadSdkVersion?id=${v.body.data.id}`, { headers: { Authorization: userToken } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain('decisio-sdk-1.2.0.zip');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    const missing = await server.fetch(`/api/sdkVersion/downloadSdkVersion?id=${t.body.data.id}`, { headers: { Authorization: userToken } });
    expect(((await missing.json()) as { code: number }).code).toBe(ErrorCode.sdkPackageMissing);

    const gone = await call('sdkVersion/deleteSdkVersion', adminToken, { id: v.body.data.id });
    expect(gone.body.code).toBe(0);
    const after = await server.fetch(`/api/sdkVersion/downloadSdkVersion?id=${v.body.data.id}`, { headers: { Authorization: userToken } });
    expect(after.status).toBe(404);
  });

  it('refuses bad input, calls without a token and ordinary users on administrator calls', async () => {
    for (const body of [{ version: 'one', edition: 'pro' }, { version: '1.0.0', edition: 'gold' }, { version: '1.0.0', edition: 'pro', x: 1 }]) {
      expect((await call('sdkVersion/createSdkVersion', adminToken, body)).status).toBe(400);
    }
    const v = await call('sdkVersion/createSdkVersion', adminToken, { version: '2.0.0', edition: 'pro' });
    expect(((await (await upload(adminToken, v.body.data.id, 'bad name.zip', randomBytes(10))).json()) as { code: number }).code).toBe(ErrorCode.paramInvalid);
    expect(((await (await upload(adminToken, v.body.data.id, 'empty.zip', new Uint8Array())).json()) as { code: number }).code).toBe(ErrorCode.paramInvalid);
    expect(((await (await upload(adminToken, 'f'.repeat(32), 'a.zip', randomBytes(10))).json()) as { code: number }).code).toBe(ErrorCode.sdkVersionNotFound);

    for (const name of ['sdkVersion/getSdkVersionList', 'sdkVersion/createSdkVersion', 'sdkVersion/deleteSdkVersion']) {
      expect((await call(name, undefined, {})).status, name).toBe(401);
    }
    expect((await upload(undefined, v.body.data.id, 'a.zip', randomBytes(10))).status).toBe(401);
    expect((await server.fetch(`/api/sdkVersion/downloadSdkVersion?id=${v.body.data.id}`)).status).toBe(401);
    expect((await call('sdkVersion/createSdkVersion', userToken, { version: '3.0.0', edition: 'pro' })).status).toBe(403);
    expect((await call('sdkVersion/deleteSdkVersion', userToken, { id: v.body.data.id })).status).toBe(403);
    expect((await upload(userToken, v.body.data.id, 'a.zip', randomBytes(10))).status).toBe(403);
  });
});
