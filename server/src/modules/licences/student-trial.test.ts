/**
 * The student trial rules (spec platform §6 "A student certificate gives a free trial; student
 * authorisation is verified with a validity date", §9 "trial SDK licence valid 30 days", §5
 * campus e-mail; `STUDENT_TRIAL_RULES` of `@decisio/domain`) on SQLite and MariaDB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { DEFAULT_TENANT_ID } from '../../db/ids';
import { up as studentFlagFromCertification } from '../../db/migrations/20261128100100_student_flag_from_certification';
import { createUser, issueCode, issueToken, signUpBody, unique, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

const VERIFIER = path.resolve(__dirname, '../../../../docs/licence-verifier/verify.mjs');
const DAY = 86_400_000;

describe.each(databases)('the student trial on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'student-trial-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });

  /** Certifies `user` with a campus e-mail code through `users/updateUserCenter`. */
  const certify = async (user: TestUser, token: string, campusEmail = `s_${unique()}@pku.edu.cn`) => {
    const code = await issueCode(server, { channel: 'email', recipient: campusEmail, purpose: 'student', userId: user.id });
    return call('users/updateUserCenter', token, { kind: 'student', university: 'PKU', major: 'CS', campusEmail, code });
  };
  const contact = async (user: TestUser) => {
    const target = `c${unique()}@example.com`;
    return { channel: 'email', target, code: await issueCode(server, { channel: 'email', recipient: target, purpose: 'licence', userId: user.id }) };
  };
  const studentLicence = async (user: TestUser, over: Record<string, unknown> = {}) => ({
    type: 'student',
    edition: 'trial',
    contact: await contact(user),
    deviceFile: { name: 'laptop.bin', content: randomBytes(64).toString('base64') },
    termsAccepted: true,
    ...over,
  });
  const setUntil = (user: TestUser, until: Date | null) => server.app.db.knex('users').where('id', user.id).update({ student_until: until });

  it('gives a certified student a free trial licence at once, for 30 days, that the offline verifier accepts', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    expect((await certify(user, token)).body.data.isStudent).toBe(true);
    const device = randomBytes(256);
    const applied = await call('sdkLicense/createSdkLicense', token, await studentLicence(user, { deviceFile: { name: 'laptop.bin', content: device.toString('base64') } }));
    expect(applied.status).toBe(200);
    // No review: the certificate is the proof.
    expect(applied.body.data).toMatchObject({ type: 'student', edition: 'trial', status: 'success', daysLeft: 30, deviceFileName: 'laptop.bin', reviewOpinion: null });
    expect(new Date(applied.body.data.endAt).getTime() - new Date(applied.body.data.startAt).getTime()).toBe(30 * DAY);
    // One student trial at a time.
    expect((await call('sdkLicense/createSdkLicense', token, await studentLicence(user))).body.code).toBe(ErrorCode.sdkLicenceExists);
    // Nothing waits in the administrators' review queue.
    const queue = await call('sdkLicense/getSdkLicenseList', adminToken, { scope: 'all', status: 'audit', pageSize: 100 });
    expect(queue.body.data.rows.map((r: { id: string }) => r.id)).not.toContain(applied.body.data.id);

    const key = await call('sdkLicense/getLicencePublicKey', token, {});
    fs.writeFileSync(path.join(dir, 'student.json'), applied.body.data.licenceFile);
    fs.writeFileSync(path.join(dir, 'key.pem'), key.body.data.publicKeyPem);
    fs.writeFileSync(path.join(dir, 'laptop.bin'), device);
    const r = spawnSync(process.execPath, [VERIFIER, '--licence', path.join(dir, 'student.json'), '--public-key', path.join(dir, 'key.pem'), '--device', path.join(dir, 'laptop.bin')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'student', edition: 'trial', userId: user.id });
  });

  it('ends a student licence with the certification, renews it only while certified, and binds it to the user key without a device file', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    await certify(user, token);
    // The certification ends in 10 days: the trial ends with it, not 30 days on.
    const until = new Date(Date.now() + 10 * DAY);
    await setUntil(user, until);
    const noKey = await call('sdkLicense/createSdkLicense', token, await studentLicence(user, { deviceFile: undefined }));
    expect(noKey.body.code).toBe(ErrorCode.userKeyMissing);
    const userKey = (await call('userCenter/createUserPrivateKey', token, {})).body.data.key as string;
    const applied = await call('sdkLicense/createSdkLicense', token, await studentLicence(user, { deviceFile: undefined }));
    expect(applied.body.data).toMatchObject({ status: 'success', deviceFileName: null, daysLeft: 10 });
    expect(new Date(applied.body.data.endAt).getTime()).toBe(until.getTime());
    const payload = JSON.parse(Buffer.from(JSON.parse(applied.body.data.licenceFile).payload, 'base64url').toString('utf8'));
    expect(payload.notAfter).toBe(until.toISOString());
    expect(payload.userKeySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(userKey).toMatch(/^dk_/);

    // In its last days the licence may be renewed, but a renewal would start when the
    // certification ends: refused until the student certifies again.
    const id = applied.body.data.id as string;
    const soon = new Date(Date.now() + 2 * DAY);
    await server.app.db.knex('sdk_licences').where({ id }).update({ end_at: soon });
    await setUntil(user, soon);
    expect((await call('sdkLicense/renewSdkLicense', token, { id })).body.code).toBe(ErrorCode.studentCertificationExpired);
    // Certified again: renewed at once from the old end, 30 days.
    await certify(user, token);
    const renewed = await call('sdkLicense/renewSdkLicense', token, { id });
    expect(renewed.body.data).toMatchObject({ type: 'student', status: 'success', renewalOf: id });
    expect(new Date(renewed.body.data.endAt).getTime() - new Date(renewed.body.data.startAt).getTime()).toBe(30 * DAY);
    const mine = (await call('sdkLicense/getSdkLicenseList', token, { pageSize: 100 })).body.data.rows as { id: string; status: string }[];
    expect(mine.find((l) => l.id === id)!.status).toBe('end');

    // The certification ended: no new trial, no renewal.
    await server.app.db.knex('sdk_licences').where({ id: renewed.body.data.id }).update({ end_at: new Date(Date.now() - 1000) });
    await setUntil(user, new Date(Date.now() - 1000));
    expect((await call('sdkLicense/renewSdkLicense', token, { id: renewed.body.data.id })).body.code).toBe(ErrorCode.studentCertificationExpired);
    const late = await call('sdkLicense/createSdkLicense', token, await studentLicence(user));
    expect(late.status).toBe(400);
    expect(late.body.code).toBe(ErrorCode.studentCertificationExpired);
  });

  it('verifies a student authorisation against the certification: only while valid, and never past its end', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const body = { type: 'student', description: 'Thesis on pump control' };
    expect((await call('userCenter/createServiceManagement', token, body)).body.code).toBe(ErrorCode.studentOnly);
    await certify(user, token);
    const until = new Date(Date.now() + 100 * DAY);
    await setUntil(user, until);
    const created = await call('userCenter/createServiceManagement', token, body);
    expect(created.body.data).toMatchObject({ type: 'student', status: 'audit' });
    const approved = await call('userCenter/reviewServiceManagement', adminToken, { id: created.body.data.id, approve: true });
    expect(approved.body.data.status).toBe('success');
    expect(new Date(approved.body.data.endAt).getTime()).toBe(until.getTime());

    // Applied while certified, reviewed after the certification ended: not approved.
    const other = await createUser(server);
    const otherToken = await issueToken(server, other);
    await certify(other, otherToken);
    const pending = await call('userCenter/createServiceManagement', otherToken, body);
    await setUntil(other, new Date(Date.now() - 1000));
    expect((await call('userCenter/reviewServiceManagement', adminToken, { id: pending.body.data.id, approve: true })).body.code).toBe(ErrorCode.studentCertificationExpired);
    // Refusing it still works.
    expect((await call('userCenter/reviewServiceManagement', adminToken, { id: pending.body.data.id, approve: false })).body.data.status).toBe('end');
    expect((await call('userCenter/createServiceManagement', otherToken, body)).body.code).toBe(ErrorCode.studentCertificationExpired);
  });

  it('makes no student of the occupation typed at sign-up, and lets the owner of a campus e-mail typed there certify it', async () => {
    const campusEmail = `s_${unique()}@tsinghua.edu.cn`;
    const signUp = await server.call('index/signUp', { body: await signUpBody(server, { occupation: 'student', university: 'THU', major: 'EE', campusEmail }) });
    expect(signUp.body.code).toBe(0);
    const squatter: TestUser = { id: signUp.body.data.userId, username: '', email: '', mobile: null, password: '', tenantId: DEFAULT_TENANT_ID };
    const squatterToken = await issueToken(server, squatter);
    expect((await call('user/getUser', squatterToken, undefined)).body.data).toMatchObject({ isStudent: false, studentUntil: null });
    expect((await call('sdkLicense/createSdkLicense', squatterToken, await studentLicence(squatter))).body.code).toBe(ErrorCode.studentOnly);

    // The real owner proves the address with its code.
    const owner = await createUser(server);
    const ownerToken = await issueToken(server, owner);
    const certified = await certify(owner, ownerToken, campusEmail);
    expect(certified.body.data).toMatchObject({ isStudent: true, campusEmail });
    // Now it is taken: neither a code nor a certification for another account, nor a sign-up.
    expect((await certify(squatter, squatterToken, campusEmail)).body.code).toBe(ErrorCode.campusEmailUsed);
    const again = await server.call('index/signUp', { body: await signUpBody(server, { occupation: 'student', campusEmail }) });
    expect(again.body.code).toBe(ErrorCode.campusEmailUsed);
  });

  it('clears the student flag the old sign-up set from the occupation; a certified account keeps it', async () => {
    const knex = server.app.db.knex;
    const declared = await createUser(server);
    await knex('users').where('id', declared.id).update({ is_student: true, occupation: 'student' });
    const certified = await createUser(server);
    const token = await issueToken(server, certified);
    await certify(certified, token);
    await studentFlagFromCertification(knex);
    expect(Boolean((await knex('users').where('id', declared.id).first('is_student')).is_student)).toBe(false);
    expect(Boolean((await knex('users').where('id', certified.id).first('is_student')).is_student)).toBe(true);
  });

  it('refuses bad input, calls without a token, and non-students', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    await certify(user, token);
    const pro = await call('sdkLicense/createSdkLicense', token, await studentLicence(user, { edition: 'pro' }));
    expect(pro.status).toBe(400);
    expect(pro.body.code).toBe(ErrorCode.paramInvalid);
    expect(pro.body.errors).toHaveProperty('edition');
    expect((await call('sdkLicense/createSdkLicense', token, await studentLicence(user, { type: 'scholar' }))).status).toBe(400);
    expect((await call('sdkLicense/createSdkLicense', undefined, await studentLicence(user))).status).toBe(401);
    const plain = await createUser(server);
    const refused = await call('sdkLicense/createSdkLicense', await issueToken(server, plain), await studentLicence(plain));
    expect([refused.status, refused.body.code]).toEqual([400, ErrorCode.studentOnly]);
  });
});
