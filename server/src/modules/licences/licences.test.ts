import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueCode, issueToken, outboxCode, solvedCaptcha, unique, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { unavailableCodeVerifier } from './codes';
import { systemClock } from '../../clock';
import { MessagesService } from '../messages/service';
import { ServiceManagementService } from '../service-management/service';
import { LicencesService } from './service';
import { LicenceSigner } from './signing';

const VERIFIER = path.resolve(__dirname, '../../../../docs/licence-verifier/verify.mjs');

function runVerifier(args: string[]) {
  const r = spawnSync(process.execPath, [VERIFIER, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.each(databases)('SDK licences on %s', (kind) => {
  let server: TestServer;
  let user: TestUser;
  let userToken: string;
  let adminToken: string;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    user = await createUser(server);
    userToken = await issueToken(server, user);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'licence-test-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });
  /** A contact with a real code of the code service (purpose `licence`, bound to `who`). */
  const contact = async (who: TestUser = user) => {
    const target = `c${unique()}@example.com`;
    return { channel: 'email', target, code: await issueCode(server, { channel: 'email', recipient: target, purpose: 'licence', userId: who.id }) };
  };
  const offline = async (device: Buffer, name = 'device.bin', edition = 'pro') => ({
    type: 'offline',
    edition,
    contact: await contact(),
    deviceFile: { name, content: device.toString('base64') },
    termsAccepted: true,
  });

  it('issues an offline licence bound to the device file that the verifier checks without the server', async () => {
    const device = randomBytes(4096);
    const applied = await call('sdkLicense/createSdkLicense', userToken, await offline(device));
    expect(applied.status).toBe(200);
    expect(applied.body.data).toMatchObject({ type: 'offline', edition: 'pro', status: 'audit', deviceFileName: 'device.bin', licenceFile: null, daysLeft: null });
    const id = applied.body.data.id as string;
    // The same device, again, while the first is on review.
    expect((await call('sdkLicense/createSdkLicense', userToken, await offline(device))).body.code).toBe(ErrorCode.sdkLicenceExists);
    expect((await call('sdkLicense/getLicenceFile', userToken, { id })).body.code).toBe(ErrorCode.licenceStateInvalid);

    const queue = await call('sdkLicense/getSdkLicenseList', adminToken, { scope: 'all', status: 'audit' });
    expect(queue.body.data.rows.map((r: { id: string }) => r.id)).toContain(id);
    const approved = await call('sdkLicense/reviewSdkLicense', adminToken, { id, approve: true, opinion: 'ok' });
    expect(approved.body.data).toMatchObject({ status: 'success', daysLeft: 30, reviewOpinion: 'ok' });
    expect((await call('sdkLicense/reviewSdkLicense', adminToken, { id, approve: true })).body.code).toBe(ErrorCode.licenceStateInvalid);

    const file = await call('sdkLicense/getLicenceFile', userToken, { id });
    expect(file.body.data.fileName).toBe(`decisio-licence-${id}.json`);
    const key = await call('sdkLicense/getLicencePublicKey', userToken, {});
    expect(key.body.data).toMatchObject({ algorithm: 'Ed25519' });
    fs.writeFileSync(path.join(dir, 'licence.json'), file.body.data.content);
    fs.writeFileSync(path.join(dir, 'key.pem'), key.body.data.publicKeyPem);
    fs.writeFileSync(path.join(dir, 'device.bin'), device);
    fs.writeFileSync(path.join(dir, 'other.bin'), randomBytes(4096));
    const base = ['--licence', path.join(dir, 'licence.json'), '--public-key', path.join(dir, 'key.pem')];

    // The same files as downloads (what the page's links fetch).
    const got = await server.fetch(`/api/sdkLicense/downloadLicenceFile?id=${id}`, { headers: { Authorization: userToken } });
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="decisio-licence-${id}.json"`);
    expect(await got.text()).toBe(file.body.data.content);
    expect(await (await server.fetch('/api/sdkLicense/downloadLicencePublicKey', { headers: { Authorization: userToken } })).text()).toBe(key.body.data.publicKeyPem);
    expect((await server.fetch(`/api/sdkLicense/downloadLicenceFile?id=${id}`)).status).toBe(401);
    const stranger = await issueToken(server, await createUser(server));
    expect((await server.fetch(`/api/sdkLicense/downloadLicenceFile?id=${id}`, { headers: { Authorization: stranger } })).status).toBe(404);
    expect((await server.fetch('/api/sdkLicense/downloadLicenceFile?id=x', { headers: { Authorization: userToken } })).status).toBe(400);

    const good = runVerifier([...base, '--device', path.join(dir, 'device.bin')]);
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ licenceId: id, type: 'offline', edition: 'pro', userId: user.id, username: user.username });

    const wrongDevice = runVerifier([...base, '--device', path.join(dir, 'other.bin')]);
    expect([wrongDevice.status, wrongDevice.stderr.trim()]).toEqual([1, 'invalid licence: deviceMismatch']);
    expect(runVerifier(base).stderr.trim()).toBe('invalid licence: deviceRequired');
    const later = runVerifier([...base, '--device', path.join(dir, 'device.bin'), '--now', new Date(Date.now() + 31 * 86_400_000).toISOString()]);
    expect([later.status, later.stderr.trim()]).toEqual([1, 'invalid licence: expired']);

    // A payload changed after signing (a longer end date) fails the signature.
    const parsed = JSON.parse(file.body.data.content);
    const payload = JSON.parse(Buffer.from(parsed.payload, 'base64url').toString('utf8'));
    payload.notAfter = '2099-01-01T00:00:00.000Z';
    fs.writeFileSync(path.join(dir, 'tampered.json'), JSON.stringify({ ...parsed, payload: Buffer.from(JSON.stringify(payload)).toString('base64url') }));
    const tampered = runVerifier(['--licence', path.join(dir, 'tampered.json'), '--public-key', path.join(dir, 'key.pem'), '--device', path.join(dir, 'device.bin')]);
    expect([tampered.status, tampered.stderr.trim()]).toEqual([1, 'invalid licence: signature']);
    // Another server's key does not vouch for this licence.
    const { generateKeyPairSync } = await import('node:crypto');
    fs.writeFileSync(path.join(dir, 'foreign.pem'), generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    const foreign = runVerifier(['--licence', path.join(dir, 'licence.json'), '--public-key', path.join(dir, 'foreign.pem'), '--device', path.join(dir, 'device.bin')]);
    expect(foreign.status).toBe(1);
    expect(runVerifier(['--licence']).status).toBe(2);

    const messages = await call('message/getMessageList', userToken, {});
    expect(messages.body.data.rows.find((m: { kind: string }) => m.kind === 'licenceReviewed').params).toMatchObject({ licenceId: id, approved: true });
  });

  it('binds an online licence to the user key, and refuses it without one', async () => {
    const body = { type: 'online', edition: 'pro', contact: await contact(), termsAccepted: true };
    expect((await call('sdkLicense/createSdkLicense', userToken, body)).body.code).toBe(ErrorCode.userKeyMissing);
    const key = (await call('userCenter/createUserPrivateKey', userToken, {})).body.data.key as string;
    const applied = await call('sdkLicense/createSdkLicense', userToken, { ...body, contact: await contact() });
    expect(applied.body.data).toMatchObject({ type: 'online', status: 'audit', deviceFileName: null });
    const approved = await call('sdkLicense/reviewSdkLicense', adminToken, { id: applied.body.data.id, approve: true });
    expect(approved.body.data.daysLeft).toBe(365);
    fs.writeFileSync(path.join(dir, 'online.json'), approved.body.data.licenceFile);
    const base = ['--licence', path.join(dir, 'online.json'), '--public-key', path.join(dir, 'key.pem')];
    expect(runVerifier([...base, '--user-key', key]).status).toBe(0);
    expect(runVerifier([...base, '--user-key', `${key}x`]).stderr.trim()).toBe('invalid licence: userKeyMismatch');
  });

  it('refuses a refused application, tells expiring and expired licences once, and renews', async () => {
    const device = randomBytes(100);
    const refused = await call('sdkLicense/createSdkLicense', userToken, await offline(device, 'a.bin', 'trial'));
    const ended = await call('sdkLicense/reviewSdkLicense', adminToken, { id: refused.body.data.id, approve: false, opinion: 'no' });
    expect(ended.body.data).toMatchObject({ status: 'end', licenceFile: null });

    const applied = await call('sdkLicense/createSdkLicense', userToken, await offline(device, 'a.bin', 'trial'));
    const id = applied.body.data.id as string;
    await call('sdkLicense/reviewSdkLicense', adminToken, { id, approve: true });
    expect((await call('sdkLicense/renewSdkLicense', userToken, { id })).body.code).toBe(ErrorCode.licenceRenewalTooEarly);

    const knex = server.app.db.knex;
    const oldEnd = new Date(Date.now() + 3 * 86_400_000 - 60_000);
    await knex('sdk_licences').where({ id }).update({ end_at: oldEnd });
    const listed = await call('sdkLicense/getSdkLicenseList', userToken, {});
    expect(listed.body.data.rows.find((r: { id: string }) => r.id === id)).toMatchObject({ status: 'success', daysLeft: 3 });

    // The sweep (run at start and hourly) writes "expires in 3 days" once, then "expired" once.
    const db = server.app.db;
    const messages = new MessagesService(db, systemClock);
    const sweeper = new LicencesService(db, systemClock, new LicenceSigner(db, systemClock), unavailableCodeVerifier, new ServiceManagementService(db, systemClock, messages), messages);
    const noticesOf = async (kind: string) =>
      ((await call('message/getMessageList', userToken, { pageSize: 100 })).body.data.rows as { kind: string; params: Record<string, unknown> }[]).filter((m) => m.kind === kind && m.params.licenceId === id);
    await sweeper.sweep();
    await sweeper.sweep();
    const expiring = await noticesOf('licenceExpiring');
    expect(expiring).toHaveLength(1);
    expect(expiring[0]!.params).toMatchObject({ days: 3, edition: 'trial' });

    // Renewal in the last days: a new application; approved, it starts where the old one ends.
    const renewal = await call('sdkLicense/renewSdkLicense', userToken, { id });
    expect(renewal.body.data).toMatchObject({ status: 'audit', renewalOf: id, deviceFileName: 'a.bin', type: 'offline' });
    expect((await call('sdkLicense/renewSdkLicense', userToken, { id })).body.code).toBe(ErrorCode.licenceStateInvalid);
    const renewed = await call('sdkLicense/reviewSdkLicense', adminToken, { id: renewal.body.data.id, approve: true });
    expect(renewed.body.data.startAt).toBe(oldEnd.toISOString());
    expect(new Date(renewed.body.data.endAt).getTime() - oldEnd.getTime()).toBe(30 * 86_400_000);
    const rows = (await call('sdkLicense/getSdkLicenseList', userToken, { pageSize: 100 })).body.data.rows as { id: string; status: string }[];
    expect(rows.find((r) => r.id === id)!.status).toBe('end');

    // A licence past its end lists as expired, its file is refused, and the sweep says so once.
    const other = await call('sdkLicense/createSdkLicense', userToken, await offline(randomBytes(50), 'b.bin', 'trial'));
    const otherId = other.body.data.id as string;
    await call('sdkLicense/reviewSdkLicense', adminToken, { id: otherId, approve: true });
    await knex('sdk_licences').where({ id: otherId }).update({ end_at: new Date(Date.now() - 1000) });
    expect((await call('sdkLicense/getSdkLicenseList', userToken, { status: 'expired' })).body.data.rows.map((r: { id: string }) => r.id)).toEqual([otherId]);
    expect((await call('sdkLicense/getLicenceFile', userToken, { id: otherId })).body.code).toBe(ErrorCode.licenceExpired);
    await sweeper.sweep();
    await sweeper.sweep();
    const expiredNotices = ((await call('message/getMessageList', userToken, { pageSize: 100 })).body.data.rows as { kind: string; params: Record<string, unknown> }[]).filter(
      (m) => m.kind === 'licenceExpired' && m.params.licenceId === otherId,
    );
    expect(expiredNotices).toHaveLength(1);
    expect((await knex('sdk_licences').where({ id: otherId }).first()).status).toBe('expired');
    // An expired licence may be renewed.
    expect((await call('sdkLicense/renewSdkLicense', userToken, { id: otherId })).body.data).toMatchObject({ status: 'audit', renewalOf: otherId });
  });

  it('checks the contact code with the code service: bound to the applicant, single use', async () => {
    const mate = await createUser(server);
    const mateToken = await issueToken(server, mate);
    // A code asked by another account does not serve this one.
    const foreign = { ...(await offline(randomBytes(30))), contact: await contact(mate) };
    expect((await call('sdkLicense/createSdkLicense', mateToken, foreign)).body.code).toBe(0);
    const stolen = { ...(await offline(randomBytes(31))), contact: foreign.contact };
    expect((await call('sdkLicense/createSdkLicense', userToken, stolen)).body.code).toBe(ErrorCode.verifyCodeMismatch);
    // Used once, a code does not serve again.
    const reused = { ...(await offline(randomBytes(32))), contact: foreign.contact };
    expect((await call('sdkLicense/createSdkLicense', mateToken, reused)).body.code).toBe(ErrorCode.codeUsed);
    // Through HTTP end to end: captcha, code sent to the outbox (development mode), application.
    const solved = await solvedCaptcha(server);
    const email = `o${unique()}@example.com`;
    const sent = await server.call('index/generateEmailCode', { token: mateToken, body: { email, purpose: 'licence', ...solved } });
    expect(sent.body.code).toBe(0);
    const code = await outboxCode(server, email);
    const applied = await call('sdkLicense/createSdkLicense', mateToken, { ...(await offline(randomBytes(33))), contact: { channel: 'email', target: email, code } });
    expect(applied.body.data).toMatchObject({ status: 'audit', contactTarget: email });
    // A composition without a code service refuses every code.
    await expect(unavailableCodeVerifier.verify('email', email, code, mate.id)).rejects.toMatchObject({ codeName: 'verifyCodeUnavailable' });
  });

  it('refuses bad input, calls without a token and administrator calls of ordinary users', async () => {
    const device = randomBytes(10);
    for (const body of [
      { ...(await offline(device)), deviceFile: undefined },
      { ...(await offline(device)), termsAccepted: false },
      { ...(await offline(device)), deviceFile: { name: `${'n'.repeat(51)}`, content: device.toString('base64') } },
      { ...(await offline(device)), contact: { channel: 'email', target: 'x', code: '123456' } },
      { ...(await offline(device)), contact: { channel: 'mobile', target: '13800000000', code: '12' } },
      { type: 'online', edition: 'pro', contact: await contact(), termsAccepted: true, deviceFile: { name: 'd', content: 'AA==' } },
    ]) {
      const r = await call('sdkLicense/createSdkLicense', userToken, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe(ErrorCode.paramInvalid);
    }
    const empty = await call('sdkLicense/createSdkLicense', userToken, await offline(Buffer.alloc(0)));
    expect(empty.body.code).toBe(ErrorCode.licenceDeviceFileInvalid);
    const big = await call('sdkLicense/createSdkLicense', userToken, await offline(randomBytes(1024 * 1024 + 1)));
    expect(big.body.code).toBe(ErrorCode.licenceDeviceFileInvalid);
    expect((await call('sdkLicense/createSdkLicense', userToken, await offline(randomBytes(1024 * 1024)))).body.code).toBe(0);
    const wrongCode = await call('sdkLicense/createSdkLicense', userToken, { ...(await offline(randomBytes(20))), contact: { channel: 'email', target: 'me@example.com', code: 'zzzzzz' } });
    expect(wrongCode.body.code).toBe(ErrorCode.verifyCodeMismatch);

    for (const name of ['sdkLicense/createSdkLicense', 'sdkLicense/getSdkLicenseList', 'sdkLicense/reviewSdkLicense', 'sdkLicense/renewSdkLicense', 'sdkLicense/getLicenceFile', 'sdkLicense/getLicencePublicKey']) {
      expect((await call(name, undefined, {})).status, name).toBe(401);
    }
    const mine = (await call('sdkLicense/getSdkLicenseList', userToken, { status: 'audit' })).body.data.rows[0].id as string;
    const denied = await call('sdkLicense/reviewSdkLicense', userToken, { id: mine, approve: true });
    expect(denied.status).toBe(403);
    expect((await call('sdkLicense/getSdkLicenseList', userToken, { scope: 'all' })).status).toBe(403);
    // Another user's licence is not found for the caller.
    const stranger = await issueToken(server, await createUser(server));
    expect((await call('sdkLicense/getLicenceFile', stranger, { id: mine })).body.code).toBe(ErrorCode.licenceNotFound);
    expect((await call('sdkLicense/renewSdkLicense', stranger, { id: mine })).body.code).toBe(ErrorCode.licenceNotFound);
  });
});
