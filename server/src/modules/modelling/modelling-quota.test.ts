/**
 * Artefact quota: a trained environment's files are charged to its owner when the job stores
 * them, a copy charges its own copy of the files (refused with `storageInsufficient`, nothing
 * copied, when they do not fit), and each delete gives back what its record's files took, so
 * that deleting every record leaves the storage used as it was before training.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, type TestServer } from '../../test/server';
import { TINY_BC, modellingTestServer, until } from './testing';

describe.each(databases)('artefact quota on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let projectId: string;
  let solutionId: string;
  let schemeId: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body });
  /** The user's used storage as `file/getFreeSpace` tells it. */
  const used = async () => {
    const r = await server.call('file/getFreeSpace', { token });
    expect(r.body.code).toBe(0);
    return Number(r.body.data.usedBytes);
  };
  const tenantUsed = async () => Number((await server.app.db.knex('storage_quotas').where({ scope: 'tenant', owner_id: owner.tenantId }).first('used_bytes')).used_bytes);
  const artefactSize = async (table: string, id: string) => {
    const row = await server.app.db.knex(table).where({ id }).first('artifact_key');
    expect(row.artifact_key).toBeTruthy();
    const stat = await server.app.blobs.stat(`${row.artifact_key}/venv.json`);
    expect(stat).not.toBeNull();
    return { key: String(row.artifact_key), size: stat!.size };
  };

  beforeAll(async () => {
    ({ server, owner, token, projectId, solutionId, schemeId } = await modellingTestServer(kind));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('charges the copy, refuses a copy that does not fit, and gives everything back on delete', async () => {
    const beforeTraining = await used();
    const tenantBefore = await tenantUsed();
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-quota', stopConditions: { system: true }, hyperparameters: TINY_BC, mode: 'run' });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id as string;
    const done = await until(() => call('trainSimulator/get', { id }), (r) => ['successful', 'failure'].includes(r.body.data.state), 90_000);
    expect(done.body.data.state).toBe('successful');
    const original = await artefactSize('simulators', id);
    const trained = await used();
    expect(trained).toBe(beforeTraining + original.size);

    // A copy that does not fit: refused, nothing copied, nothing charged.
    await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: owner.id }).update({ total_bytes: trained + original.size - 1 });
    const refused = await call('simulator/copy', { id, name: 'env-quota-big' });
    expect(refused.body.code).toBe(ErrorCode.storageInsufficient);
    expect(await server.app.db.knex('simulators').where({ name: 'env-quota-big' }).first('id')).toBeUndefined();
    expect(await server.app.db.knex('simulators').where({ solution_id: solutionId }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await used()).toBe(trained);
    expect(await tenantUsed()).toBe(tenantBefore + original.size);
    // Exactly enough space: the copy fits.
    await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: owner.id }).update({ total_bytes: trained + original.size });

    const copy = await call('simulator/copy', { id, name: 'env-quota-copy' });
    expect(copy.body.code).toBe(0);
    const copied = await artefactSize('simulators', copy.body.data.id as string);
    expect(copied.key).not.toBe(original.key);
    expect(copied.size).toBe(original.size);
    expect(await used()).toBe(trained + original.size);
    expect(await tenantUsed()).toBe(tenantBefore + 2 * original.size);

    // A copy of the copy would not fit any more.
    expect((await call('simulator/copy', { id: copy.body.data.id, name: 'env-quota-copy2' })).body.code).toBe(ErrorCode.storageInsufficient);
    expect(await used()).toBe(trained + original.size);

    // Deleting the copy gives its files back; the original's files stay.
    expect((await call('simulator/delete', { id: copy.body.data.id })).body.code).toBe(0);
    expect(await server.app.blobs.stat(`${copied.key}/venv.json`)).toBeNull();
    expect(await server.app.blobs.stat(`${original.key}/venv.json`)).not.toBeNull();
    expect(await used()).toBe(trained);
    // Deleting it again: not found, nothing given back twice.
    expect((await call('simulator/delete', { id: copy.body.data.id })).body.code).toBe(ErrorCode.simulatorNotFound);
    expect(await used()).toBe(trained);

    // Deleting the original: back to the value before training.
    expect((await call('simulator/delete', { id })).body.code).toBe(0);
    expect(await server.app.blobs.stat(`${original.key}/venv.json`)).toBeNull();
    expect(await used()).toBe(beforeTraining);
    expect(await tenantUsed()).toBe(tenantBefore);
  }, 150_000);

  it('a training trained further stores its files again without charging them twice, by a collaborator too', async () => {
    const beforeTraining = await used();
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-quota-update', stopConditions: { system: true }, hyperparameters: TINY_BC, mode: 'run' });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id as string;
    const get = () => call('trainSimulator/get', { id });
    expect((await until(get, (r) => ['successful', 'failure'].includes(r.body.data.state), 90_000)).body.data.state).toBe('successful');
    const firstJob = (await get()).body.data.jobId as string;
    const first = await artefactSize('simulators', id);
    expect(await used()).toBe(beforeTraining + first.size);

    const updated = await call('train/createTrainUpdate', { id, kind: 'environment', hyperparameters: { epochs: 1 } });
    expect(updated.body.code).toBe(0);
    const after = await until(get, (r) => r.body.data.jobId !== firstJob && ['successful', 'failure'].includes(r.body.data.state), 90_000);
    expect(after.body.data.state).toBe('successful');
    const second = await artefactSize('simulators', id);
    expect(second.key).toBe(first.key);
    expect(await used()).toBe(beforeTraining + second.size);

    // A collaborator with the edit right trains it further: the files stay in the owner's
    // folder and on the owner's quota; the collaborator is charged nothing.
    const mate = await createUser(server, { tenantId: owner.tenantId });
    const mateToken = await issueToken(server, mate);
    const granted = await call('project/createProjectPermissionsList', { projectId, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'edit' }] });
    expect(granted.body.code).toBe(0);
    const mateUsed = async () => Number((await server.call('file/getFreeSpace', { token: mateToken })).body.data.usedBytes);
    expect(await mateUsed()).toBe(0);
    const secondJob = (await get()).body.data.jobId as string;
    const byMate = await server.call('train/createTrainUpdate', { token: mateToken, body: { id, kind: 'environment', hyperparameters: { epochs: 1 } } });
    expect(byMate.body.code).toBe(0);
    const mateRun = await until(get, (r) => r.body.data.jobId !== secondJob && ['successful', 'failure'].includes(r.body.data.state), 90_000);
    expect(mateRun.body.data.state).toBe('successful');
    expect((await server.app.db.knex('jobs').where({ id: mateRun.body.data.jobId }).first('user_id')).user_id).toBe(mate.id);
    const third = await artefactSize('simulators', id);
    expect(third.key).toBe(first.key);
    // the weights' text (and so its size) changes as they train: the difference is the owner's
    expect(await used()).toBe(beforeTraining + third.size);
    expect(await mateUsed()).toBe(0);

    // The collaborator deletes it: the owner gets the space back.
    expect((await server.call('simulator/delete', { token: mateToken, body: { id } })).body.code).toBe(0);
    expect(await used()).toBe(beforeTraining);
    expect(await mateUsed()).toBe(0);
  }, 200_000);
  it('gives back the processed data of a scheme when the scheme is deleted', async () => {
    // room for the processed data (an earlier test left the quota tight)
    await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: owner.id }).update({ total_bytes: 1024 ** 3 });
    const before = await used();
    const created = (await call('scheme/create', { solutionId, name: 'quota-scheme', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' })).body.data.id as string;
    expect((await call('scheme/schemeDataProcess', { id: created })).body.code).toBe(0);
    const done = await until(() => call('scheme/get', { id: created }), (r) => r.body.data.processState !== 'processing', 90_000);
    expect(done.body.data.processState).toBe('completed');
    const key = String((await server.app.db.knex('schemes').where({ id: created }).first('processed_key')).processed_key);
    const size = (await server.app.blobs.stat(key))!.size;
    expect(size).toBeGreaterThan(0);
    expect(await used()).toBe(before + size);
    expect((await call('scheme/delete', { id: created })).body.code).toBe(0);
    expect(await used()).toBe(before);
    expect(await server.app.blobs.stat(key)).toBeNull();
    // deleting again is refused and gives nothing back
    expect((await call('scheme/delete', { id: created })).body.code).toBe(ErrorCode.schemeNotFound);
    expect(await used()).toBe(before);
  }, 120_000);
});
